import { CheckCircle2, Sparkles, XCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import type { Attempt, LearnerQuestion } from "../../../../shared/contracts/assessment.js";
import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { cn } from "../../../lib/cn.js";
import { attemptsLine } from "./attempt-form.js";

type Result = NonNullable<Attempt["results"]>[number];
type AnswerValue = Attempt["answers"][number]["value"];

function describe(question: LearnerQuestion, value: AnswerValue | undefined): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0) || value === "") return "No answer";
  if (typeof value === "string") return value;
  return value.map((i) => question.options[i] ?? `Option ${i + 1}`).join(", ");
}

function keyText(question: LearnerQuestion, key: NonNullable<Result["key"]>): string {
  if (question.kind === "short") return key.accepted.length > 0 ? key.accepted.join(" · ") : "Graded against the rubric";
  return key.correct.map((i) => question.options[i] ?? `Option ${i + 1}`).join(", ");
}

/**
 * A submitted attempt: the score, pass or fail, and each question right or wrong with the key and why when the quiz shows
 * them. Just submitted here (`focus`), the result takes the focus, so keyboard and screen reader users land on what they
 * asked for instead of the page's top (the form they were in is gone).
 */
export function AttemptResult({ attempt, focus = false }: { attempt: Attempt; focus?: boolean }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focus) section.current?.focus();
  }, [focus]);
  const results = new Map((attempt.results ?? []).map((r) => [r.questionId, r]));
  const answers = new Map(attempt.answers.map((a) => [a.questionId, a.value]));
  const keysShown = (attempt.results ?? []).some((r) => r.key !== null);
  const wrong = (attempt.results ?? []).filter((r) => !r.correct).length;
  return (
    <section ref={section} tabIndex={-1} aria-labelledby={`result-${attempt.id}`} className="grid gap-4 outline-none">
      <Card className={cn(attempt.passed ? "border-emerald-500/50" : "border-destructive/50")}>
        <CardHeader>
          <CardTitle id={`result-${attempt.id}`} className="flex flex-wrap items-center gap-3 text-2xl">
            {attempt.passed ? (
              <CheckCircle2 className="size-7 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
            ) : (
              <XCircle className="size-7 text-destructive" aria-hidden="true" />
            )}
            <span>
              {attempt.score ?? 0}% · {attempt.passed ? "Passed" : "Not passed"}
            </span>
          </CardTitle>
          <CardDescription>
            Pass mark {attempt.passMark}% · {attemptsLine(attempt)} ·{" "}
            {wrong === 0 ? "every answer right" : `${wrong} ${wrong === 1 ? "answer" : "answers"} wrong`}
          </CardDescription>
        </CardHeader>
        {!keysShown && wrong > 0 ? (
          <CardContent className="pt-0 text-sm text-muted-foreground">The answers and explanations are shown once you pass.</CardContent>
        ) : null}
      </Card>
      <ol className="grid gap-3" aria-label="Your answers">
        {attempt.questions.map((question, index) => {
          const result = results.get(question.id);
          const right = result?.correct ?? false;
          return (
            <li key={question.id} className="grid gap-2 rounded-lg border p-4 text-sm">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="min-w-0 flex-1 basis-48 font-medium break-words whitespace-pre-wrap">
                  <span className="text-muted-foreground">{index + 1}. </span>
                  {question.prompt}
                </p>
                <span
                  className={cn(
                    "flex items-center gap-1 font-medium",
                    right ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400",
                  )}
                >
                  {right ? <CheckCircle2 className="size-4" aria-hidden="true" /> : <XCircle className="size-4" aria-hidden="true" />}
                  {right ? "Right" : "Wrong"}
                </span>
              </div>
              <p className="break-words">
                <span className="text-muted-foreground">Your answer: </span>
                {describe(question, answers.get(question.id))}
              </p>
              {result?.key ? (
                <p className="break-words">
                  <span className="text-muted-foreground">{question.kind === "short" ? "Accepted: " : "Correct answer: "}</span>
                  {keyText(question, result.key)}
                </p>
              ) : null}
              {result?.gradedBy === "ai" ? (
                <div className="grid gap-1 rounded-md bg-muted/60 p-2">
                  <Badge variant="beta">
                    <Sparkles aria-hidden="true" className="size-3" />
                    Graded by AI
                  </Badge>
                  {result.reasoning ? <p className="break-words">{result.reasoning}</p> : null}
                </div>
              ) : null}
              {result?.explanation ? (
                <p className="break-words text-muted-foreground">
                  <span className="font-medium">Why: </span>
                  {result.explanation}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
