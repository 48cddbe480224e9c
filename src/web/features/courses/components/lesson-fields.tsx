import { Controller, type UseFormReturn } from "react-hook-form";
import { LESSON_TYPES } from "../../../../shared/contracts/courses.js";
import { FieldError, FormField, TextField } from "../../../components/ui/form-field.js";
import { Label } from "../../../components/ui/label.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
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
 * Title, Type and Content (markdown), with "Generate with AI" filling the content (the user then saves). A new lesson
 * (`chooseKind`) is a reading lesson or a quiz; a quiz's content is its optional introduction (decision 040).
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
  const quiz = form.watch("kind") === "quiz";
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
      {chooseKind ? (
        <Controller
          control={form.control}
          name="kind"
          render={({ field }) => (
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Lesson kind</legend>
              <RadioGroup
                value={field.value ?? "reading"}
                onValueChange={(kind) => {
                  field.onChange(kind);
                  if (kind === "quiz") form.setValue("type", "quiz", { shouldDirty: true });
                  else if (form.getValues("type") === "quiz") form.setValue("type", "reading", { shouldDirty: true });
                }}
                className="flex flex-wrap gap-x-6 gap-y-2"
              >
                {(
                  [
                    ["reading", "Reading lesson"],
                    ["quiz", "Quiz"],
                  ] as const
                ).map(([kind, label]) => (
                  <div key={kind} className="flex items-center gap-2">
                    <RadioGroupItem id={`${idPrefix}-kind-${kind}`} value={kind} />
                    <Label htmlFor={`${idPrefix}-kind-${kind}`}>{label}</Label>
                  </div>
                ))}
              </RadioGroup>
            </fieldset>
          )}
        />
      ) : null}
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
              <Select value={field.value ?? ""} onValueChange={field.onChange}>
                <SelectTrigger id={`${idPrefix}-type`} aria-invalid={fieldState.error ? true : undefined}>
                  <SelectValue placeholder="Choose a type" />
                </SelectTrigger>
                <SelectContent>
                  {LESSON_TYPES.map((type) => (
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
