import { CheckCircle2, Circle, Sparkles } from "lucide-react";
import type { Question } from "../../../../shared/contracts/assessment.js";
import { ItemActions, type OrderedItem } from "../../../components/item-actions.js";
import { Badge } from "../../../components/ui/badge.js";
import { QUESTION_KIND_LABELS } from "../question-kinds.js";

/** One draft question as the owner reviews it: its key shown, and Move / Edit / Delete. */
export function QuestionCard({ question, ...actions }: OrderedItem & { question: Question }) {
  const name = `question ${question.order}`;
  return (
    <li className="grid gap-3 rounded-lg border bg-background p-3">
      <div className="flex flex-wrap items-start gap-2">
        <span className="w-6 pt-0.5 text-center text-xs font-semibold text-muted-foreground tabular-nums">{question.order}</span>
        <div className="grid min-w-0 flex-1 basis-48 gap-1">
          <p className="text-sm font-medium break-words whitespace-pre-wrap">{question.prompt}</p>
          <div className="flex flex-wrap gap-1">
            <Badge variant="secondary">{QUESTION_KIND_LABELS[question.kind]}</Badge>
            {question.kind === "short" && question.aiGrading ? (
              <Badge variant="beta">
                <Sparkles aria-hidden="true" className="size-3" />
                Graded with AI
              </Badge>
            ) : null}
          </div>
        </div>
        <ItemActions name={name} label={name} {...actions} />
      </div>
      <div className="grid gap-2 pl-8 text-sm">
        {question.kind === "short" ? (
          <p className="break-words">
            <span className="text-muted-foreground">Accepted: </span>
            {question.accepted.length > 0 ? question.accepted.join(" · ") : "none (the AI grades every answer)"}
            {question.accepted.length > 0 && question.match === "contains" ? (
              <span className="text-muted-foreground"> (or an answer containing one)</span>
            ) : null}
          </p>
        ) : (
          <ul className="grid gap-1" aria-label={`Options of ${name}`}>
            {question.options.map((option, index) => {
              const right = question.correct.includes(index);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: options are positional (the key names them by index)
                <li key={index} className="flex items-start gap-2 break-words">
                  {right ? (
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-label="Correct" />
                  ) : (
                    <Circle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  <span className={right ? "font-medium" : undefined}>{option}</span>
                </li>
              );
            })}
          </ul>
        )}
        {question.kind === "short" && question.aiGrading && question.rubric ? (
          <p className="break-words">
            <span className="text-muted-foreground">Rubric: </span>
            {question.rubric}
          </p>
        ) : null}
        {question.explanation ? (
          <p className="break-words text-muted-foreground">
            <span className="font-medium">Why: </span>
            {question.explanation}
          </p>
        ) : null}
      </div>
    </li>
  );
}
