import { Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { Attempt } from "../../../../shared/contracts/assessment.js";
import { Button } from "../../../components/ui/button.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useSubmitAttempt } from "../api.js";
import { type AnswerValue, useAnswerAutosave } from "../use-answer-autosave.js";
import { AnswerField } from "./answer-field.js";
import { SaveStatusLine } from "./save-status.js";

const answered = (value: AnswerValue | undefined) => (Array.isArray(value) ? value.length > 0 : (value ?? "").trim().length > 0);

/** An open attempt: every question, each answer saved as it is given, and Submit (asking first when some are unanswered). */
export function AttemptForm({ attempt }: { attempt: Attempt }) {
  const autosave = useAnswerAutosave(attempt);
  const submit = useSubmitAttempt();
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // Closing the tab or leaving with an answer not saved yet asks first; Save sends it.
  useUnsavedChanges({ dirty: autosave.pending, save: autosave.flush });

  const unanswered = attempt.questions.filter((q) => !answered(autosave.answers.get(q.id))).length;
  const total = attempt.questions.length;
  const busy = sending || submit.isPending;

  const send = async () => {
    setSending(true);
    try {
      if (!(await autosave.flush())) return;
      await submit.mutateAsync(attempt.id).catch(() => undefined);
    } finally {
      setSending(false);
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="attempt-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="attempt-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {total - unanswered} of {total} answered
        </h2>
        <SaveStatusLine status={autosave.status} onRetry={() => void autosave.retry()} />
      </div>
      <div className="grid gap-4">
        {attempt.questions.map((question, index) => (
          <AnswerField
            key={question.id}
            question={question}
            number={index + 1}
            total={total}
            value={autosave.answers.get(question.id)}
            onChange={(value) => autosave.change(question.id, value)}
          />
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => (unanswered > 0 ? setConfirming(true) : void send())} disabled={busy}>
          {busy ? <ButtonSpinner /> : <Send aria-hidden="true" />}
          {busy ? "Submitting..." : "Submit"}
        </Button>
        <span className="text-sm text-muted-foreground">
          Pass mark {attempt.passMark}% · {attemptsLine(attempt)}
        </span>
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Submit with unanswered questions?"
          message={`${unanswered} of ${total} ${total === 1 ? "question is" : "questions are"} not answered and will count as wrong.`}
          confirmLabel="Submit anyway"
          pendingLabel="Submitting..."
          destructive={false}
          pending={busy}
          onConfirm={() => void send()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}

/** "Attempt 2 of 3" or "Attempt 2 (no limit)". */
export function attemptsLine(attempt: Pick<Attempt, "attemptsUsed" | "attemptsAllowed">): string {
  return attempt.attemptsAllowed === null
    ? `Attempt ${attempt.attemptsUsed} (no limit)`
    : `Attempt ${attempt.attemptsUsed} of ${attempt.attemptsAllowed}`;
}
