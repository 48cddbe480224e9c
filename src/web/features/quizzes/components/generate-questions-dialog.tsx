import { Loader2, Sparkles } from "lucide-react";
import { useState } from "react";
import { QUESTION_KINDS, type QuestionKind } from "../../../../shared/contracts/assessment.js";
import { hasEarlyAccess, PLAN_REFUSALS } from "../../../../shared/plan.js";
import { PlanLockedNote } from "../../../components/plan-locked-note.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { FieldError } from "../../../components/ui/form-field.js";
import { Input } from "../../../components/ui/input.js";
import { Label } from "../../../components/ui/label.js";
import { useCurrentUser } from "../../../domain/session.js";
import { failureText } from "../../../lib/failure-text.js";
import { useGenerateQuestions } from "../api.js";
import { QUESTION_KIND_LABELS } from "../question-kinds.js";

const GENERATE_FAILED = "The questions could not be drafted. Try again in a moment, or add questions by hand.";

/** "Generate quiz": how many questions and of which kinds, drafted by AI from the module's lessons for the owner to review. */
export function GenerateQuestionsButton({ lessonId }: { lessonId: number }) {
  const [open, setOpen] = useState(false);
  const allowed = hasEarlyAccess(useCurrentUser().user);
  if (!allowed) {
    return (
      <div className="grid gap-2">
        <Button variant="outline" className="w-fit" disabled aria-describedby="quiz-ai-locked">
          <Sparkles aria-hidden="true" />
          Generate quiz
        </Button>
        <PlanLockedNote id="quiz-ai-locked" message={PLAN_REFUSALS.courseGeneration} />
      </div>
    );
  }
  return (
    <>
      <Button variant="outline" className="w-fit" onClick={() => setOpen(true)}>
        <Sparkles aria-hidden="true" />
        Generate quiz
      </Button>
      {open ? <GenerateQuestionsDialog lessonId={lessonId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function GenerateQuestionsDialog({ lessonId, onClose }: { lessonId: number; onClose: () => void }) {
  const generate = useGenerateQuestions(lessonId);
  const [count, setCount] = useState("5");
  const [kinds, setKinds] = useState<QuestionKind[]>([...QUESTION_KINDS]);
  const [problem, setProblem] = useState<string | null>(null);
  const number = Number(count);
  const countOk = Number.isInteger(number) && number >= 1 && number <= 20;
  const submit = () => {
    if (!countOk || kinds.length === 0) {
      setProblem(null);
      return;
    }
    setProblem(null);
    generate.mutate(
      { count: number, kinds: QUESTION_KINDS.filter((k) => kinds.includes(k)) },
      { onSuccess: onClose, onError: (error) => setProblem(failureText(error, GENERATE_FAILED)) },
    );
  };
  return (
    <Dialog open onOpenChange={(next) => !next && !generate.isPending && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Generate quiz</DialogTitle>
          <DialogDescription>
            AI drafts questions from this module's lessons, each with its answer and a one-line explanation. They are added to the draft:
            review them before you publish.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="generate-count">Number of questions</Label>
            <Input
              id="generate-count"
              type="number"
              inputMode="numeric"
              min={1}
              max={20}
              value={count}
              disabled={generate.isPending}
              aria-invalid={countOk ? undefined : true}
              aria-describedby={countOk ? undefined : "generate-count-error"}
              onChange={(event) => setCount(event.target.value)}
            />
            <FieldError id="generate-count-error" message={countOk ? undefined : "Choose between 1 and 20 questions"} />
          </div>
          <fieldset className="grid gap-2" aria-describedby={kinds.length === 0 ? "generate-kinds-error" : undefined}>
            <legend className="mb-1 text-sm font-medium">Question types</legend>
            {QUESTION_KINDS.map((kind) => (
              <div key={kind} className="flex items-center gap-2">
                <Checkbox
                  id={`generate-kind-${kind}`}
                  checked={kinds.includes(kind)}
                  disabled={generate.isPending}
                  onCheckedChange={(on) => setKinds((old) => (on === true ? [...old, kind] : old.filter((k) => k !== kind)))}
                />
                <Label htmlFor={`generate-kind-${kind}`}>{QUESTION_KIND_LABELS[kind]}</Label>
              </div>
            ))}
            <FieldError id="generate-kinds-error" message={kinds.length === 0 ? "Choose at least one type" : undefined} />
          </fieldset>
          {generate.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />
              Drafting {number} {number === 1 ? "question" : "questions"} from the module's lessons... this can take a minute.
            </p>
          ) : null}
          {problem ? <Alert variant="destructive">{problem}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={generate.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={generate.isPending || !countOk || kinds.length === 0}>
              <Sparkles aria-hidden="true" />
              {generate.isPending ? "Generating..." : "Generate"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
