import { zodResolver } from "@hookform/resolvers/zod";
import { Send } from "lucide-react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import { type PublishQuizInput, publishQuizBodySchema, type Quiz } from "../../../../shared/contracts/assessment.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { usePublishQuiz } from "../api.js";
import { QuizState } from "./quiz-state.js";

type PublishInput = z.input<typeof publishQuizBodySchema>;

const SHOW_ANSWER_LABELS = {
  after_each: "After each attempt",
  after_pass: "Only after passing",
} as const;

/**
 * Pass mark, attempts, when answers are shown and whether the lesson tutor stays open during an attempt (off by default,
 * decision 067); Publish makes the draft the quiz's next version.
 */
export function PublishPanel({ quiz }: { quiz: Quiz }) {
  const publish = usePublishQuiz(quiz.lessonId);
  const form = useForm<PublishInput, unknown, PublishQuizInput>({
    resolver: zodResolver(publishQuizBodySchema),
    defaultValues: {
      passMark: quiz.published?.passMark ?? 70,
      attempts: quiz.published?.attempts ?? null,
      showAnswers: quiz.published?.showAnswers ?? "after_each",
      tutorOpen: quiz.published?.tutorOpen ?? false,
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((body) =>
    publish.mutate(body, {
      onSuccess: () =>
        form.reset({ passMark: body.passMark, attempts: body.attempts, showAnswers: body.showAnswers, tutorOpen: body.tutorOpen }),
      onError: (error) => applyServerFieldErrors(form.setError, error, ["passMark", "attempts"]),
    }),
  );
  const empty = quiz.questions.length === 0;
  const upToDate = quiz.published !== null && !quiz.changedSincePublish && !form.formState.isDirty;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Publish <QuizState quiz={quiz} />
        </CardTitle>
        <CardDescription>
          {quiz.published
            ? "Learners take the published version; a new one starts with the next attempt. Attempts keep the version they were taken on."
            : "Nothing is shown to learners until you publish."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label="Publish settings" className="grid gap-4" onSubmit={onSubmit}>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
            <TextField
              id="quiz-pass-mark"
              label="Pass mark (%)"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              error={errors.passMark?.message}
              {...form.register("passMark", { setValueAs: (v: string) => (v === "" ? undefined : Number(v)) })}
            />
            <TextField
              id="quiz-attempts"
              label="Attempts allowed"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              placeholder="Unlimited"
              hint="Leave empty for unlimited."
              error={errors.attempts?.message}
              {...form.register("attempts", { setValueAs: (v: string | number | null) => (v === "" || v === null ? null : Number(v)) })}
            />
          </div>
          <Controller
            control={form.control}
            name="showAnswers"
            render={({ field }) => (
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-sm font-medium">Show answers and explanations</legend>
                <RadioGroup value={field.value ?? "after_each"} onValueChange={field.onChange} className="gap-2">
                  {(["after_each", "after_pass"] as const).map((value) => (
                    <div key={value} className="flex items-center gap-2">
                      <RadioGroupItem id={`quiz-show-${value}`} value={value} />
                      <Label htmlFor={`quiz-show-${value}`}>{SHOW_ANSWER_LABELS[value]}</Label>
                    </div>
                  ))}
                </RadioGroup>
              </fieldset>
            )}
          />
          <Controller
            control={form.control}
            name="tutorOpen"
            render={({ field }) => (
              <SwitchField
                label="Lesson tutor during an attempt"
                description={
                  field.value
                    ? "Learners may ask the tutor of any lesson of this course while they take this quiz."
                    : "The tutor of every lesson of this course is closed to a learner until they submit their attempt."
                }
                checked={field.value ?? false}
                onChange={field.onChange}
              />
            )}
          />
          {empty ? <p className="text-sm text-muted-foreground">Add at least one question before publishing.</p> : null}
          <Button type="submit" className="w-fit" disabled={publish.isPending || empty}>
            {publish.isPending ? <ButtonSpinner /> : <Send aria-hidden="true" />}
            {publish.isPending ? "Publishing..." : upToDate ? "Publish again" : quiz.published ? "Publish changes" : "Publish"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
