import { Plus } from "lucide-react";
import { useState } from "react";
import type { Question } from "../../../../shared/contracts/assessment.js";
import { Button } from "../../../components/ui/button.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { useLeaveScope } from "../../../lib/unsaved-changes.js";
import { useMoveQuestion, useRemoveQuestion } from "../api.js";
import { QuestionCard } from "./question-card.js";
import { QuestionForm } from "./question-form.js";

/** The draft questions in order; one question is edited (or added) at a time, asking first about unsaved changes. */
export function QuestionList({ lessonId, questions }: { lessonId: number; questions: Question[] }) {
  const scope = useLeaveScope();
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const [deleting, setDeleting] = useState<Question | null>(null);
  const move = useMoveQuestion(lessonId);
  const remove = useRemoveQuestion(lessonId);
  const open = (next: number | "new") => scope.confirmLeave(() => setEditing(next));
  return (
    <div className="grid gap-3">
      {questions.length === 0 && editing !== "new" ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No questions yet. Add one, or let AI draft a few from the module's lessons.
        </p>
      ) : null}
      <ol className="grid gap-2" aria-label="Questions">
        {questions.map((question, index) =>
          editing === question.id ? (
            <li key={question.id}>
              <QuestionForm lessonId={lessonId} question={question} scope={scope} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <QuestionCard
              key={question.id}
              question={question}
              first={index === 0}
              last={index === questions.length - 1}
              busy={move.isPending}
              onMove={(direction) => move.mutate({ id: question.id, direction })}
              onEdit={() => open(question.id)}
              onDelete={() => setDeleting(question)}
            />
          ),
        )}
      </ol>
      {editing === "new" ? (
        <QuestionForm lessonId={lessonId} scope={scope} onDone={() => setEditing(null)} />
      ) : (
        <Button variant="outline" className="w-fit" onClick={() => open("new")}>
          <Plus aria-hidden="true" />
          Add Question
        </Button>
      )}
      {deleting ? (
        <ConfirmDialog
          title="Delete this question?"
          message={`“${deleting.prompt.slice(0, 120)}” goes from the draft. Learners keep seeing it until you publish again.`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}
