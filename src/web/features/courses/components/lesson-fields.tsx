import { Controller, type UseFormReturn } from "react-hook-form";
import { LESSON_TYPES } from "../../../../shared/contracts/courses.js";
import { FieldError, FormField, TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../../components/ui/select.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { notify } from "../../../lib/notify.js";
import { useGenerateLessonContent } from "../ai-mutations.js";
import type { LessonFormInput, LessonFormOutput } from "../lesson-form-values.js";
import { LESSON_TYPE_LABELS, useTrainingHints } from "../training-hints.js";
import { AiButton, CourseAiLockedNote } from "./ai-button.js";
import { DripDaysField, dripDaysValue } from "./drip-days-field.js";

type Form = UseFormReturn<LessonFormInput, unknown, LessonFormOutput>;

/**
 * The types a lesson may take: all for a new one (its type picks its kind); a made lesson keeps its kind, so a quiz
 * stays a Quiz and a reading lesson is not offered Quiz (unless it already reads so, from before quizzes were real).
 */
function typeChoices(fixedKind: LessonFormInput["kind"] | null, current: string | undefined) {
  if (fixedKind === null) return LESSON_TYPES;
  if (fixedKind === "quiz") return LESSON_TYPES.filter((type) => type === "quiz");
  return LESSON_TYPES.filter((type) => type !== "quiz" || current === "quiz");
}

/**
 * Title, Type and Content (markdown), with "Generate with AI" filling the content (the user then saves). A new lesson
 * (`chooseKind`) is a quiz when its Type is Quiz, else a reading lesson: one choice, not a kind beside a type (decision
 * 060); a quiz's content is its optional introduction (decision 040).
 */
export function LessonFields({
  form,
  idPrefix,
  moduleId,
  chooseKind = false,
}: {
  form: Form;
  idPrefix: string;
  moduleId: number;
  chooseKind?: boolean;
}) {
  const { errors } = form.formState;
  const kind = form.watch("kind") ?? "reading";
  const quiz = kind === "quiz";
  const hints = useTrainingHints();
  const generate = useGenerateLessonContent();

  const onGenerate = () => {
    const title = form.getValues("title").trim();
    if (!title) {
      form.setError("title", { type: "manual", message: "Please enter a title first" });
      notify.error("Error generating content", "Please enter a title first");
      return;
    }
    const type = form.getValues("type") ?? "reading";
    generate.mutate(
      { moduleId, title, type, hints },
      {
        onSuccess: ({ content }) => {
          form.setValue("content", content, { shouldDirty: true, shouldValidate: true });
          form.setValue("aiGenerated", true, { shouldDirty: true });
        },
      },
    );
  };

  return (
    <>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          id={`${idPrefix}-title`}
          label="Lesson title"
          autoComplete="off"
          error={errors.title?.message}
          {...form.register("title")}
        />
        <Controller
          control={form.control}
          name="type"
          render={({ field, fieldState }) => (
            <FormField id={`${idPrefix}-type`} label="Type" error={fieldState.error?.message}>
              <Select
                value={field.value ?? ""}
                onValueChange={(type) => {
                  field.onChange(type);
                  // A new lesson's one choice: Quiz makes a quiz (its questions come next), any other type a reading lesson.
                  if (chooseKind) form.setValue("kind", type === "quiz" ? "quiz" : "reading", { shouldDirty: true });
                }}
              >
                <SelectTrigger id={`${idPrefix}-type`} aria-invalid={fieldState.error ? true : undefined}>
                  <SelectValue placeholder="Choose a type" />
                </SelectTrigger>
                <SelectContent>
                  {typeChoices(chooseKind ? null : kind, field.value).map((type) => (
                    <SelectItem key={type} value={type}>
                      {LESSON_TYPE_LABELS[type]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
          )}
        />
      </div>
      <div className="grid gap-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <Label htmlFor={`${idPrefix}-content`}>{quiz ? "Introduction (optional)" : "Content"}</Label>
          {quiz ? null : <AiButton pending={generate.isPending} onClick={onGenerate} lockedNoteId={`${idPrefix}-ai-locked`} />}
        </div>
        <Textarea
          id={`${idPrefix}-content`}
          className="font-mono text-sm"
          rows={quiz ? 5 : 12}
          placeholder={quiz ? "What the quiz covers, shown before it starts (Markdown)..." : "Write the lesson in Markdown..."}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={errors.content ? `${idPrefix}-content-error` : undefined}
          {...form.register("content")}
        />
        <p className="text-xs text-muted-foreground">Markdown: headings, lists, links, tables and code blocks.</p>
        <FieldError id={`${idPrefix}-content-error`} message={errors.content?.message} />
        {quiz ? (
          <p className="text-xs text-muted-foreground">You add the questions next, in the quiz editor.</p>
        ) : (
          <CourseAiLockedNote id={`${idPrefix}-ai-locked`} />
        )}
      </div>
      <DripDaysField
        id={`${idPrefix}-release`}
        hint="Opens this many days after a learner starts the course; empty: as its module says."
        error={errors.releaseAfterDays?.message}
        {...form.register("releaseAfterDays", dripDaysValue)}
      />
    </>
  );
}
