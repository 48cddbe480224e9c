import { Plus, X } from "lucide-react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { QUESTION_KINDS, type Question, type QuestionKind, SHORT_MATCHES } from "../../../../shared/contracts/assessment.js";
import { Button } from "../../../components/ui/button.js";
import { Checkbox } from "../../../components/ui/checkbox.js";
import { FieldError, FormField } from "../../../components/ui/form-field.js";
import { Input } from "../../../components/ui/input.js";
import { Label } from "../../../components/ui/label.js";
import { NativeSelect } from "../../../components/ui/native-select.js";
import { RadioGroup, RadioGroupItem } from "../../../components/ui/radio-group.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { SwitchField } from "../../../components/ui/switch-field.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { type LeaveScope, savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useAddQuestion, useUpdateQuestion } from "../api.js";
import {
  optionsFor,
  QUESTION_FIELDS,
  type QuestionFormValues,
  questionBody,
  questionFormValues,
  questionResolver,
} from "../question-form-values.js";
import { QUESTION_KIND_LABELS, SHORT_MATCH_LABELS } from "../question-kinds.js";

type Props = { lessonId: number; question?: Question; scope: LeaveScope; onDone: () => void };

/**
 * A new question or a change to one: kind, prompt, options with the correct ones marked (or the accepted answers and
 * a rubric the AI grades with), explanation. Checked with the contract's rules; guarded against leaving unsaved.
 */
export function QuestionForm({ lessonId, question, scope, onDone }: Props) {
  const form = useForm<QuestionFormValues>({ resolver: questionResolver, defaultValues: questionFormValues(question) });
  const options = useFieldArray({ control: form.control, name: "options" });
  const add = useAddQuestion(lessonId);
  const update = useUpdateQuestion(lessonId);
  const pending = add.isPending || update.isPending;
  const idPrefix = question ? `question-${question.id}` : "new-question";
  const { errors } = form.formState;
  const kind = form.watch("kind");
  const correct = form.watch("correct");

  const persist = (values: QuestionFormValues) => {
    const body = questionBody(values);
    const handlers = { onSuccess: onDone, onError: (error: unknown) => applyServerFieldErrors(form.setError, error, QUESTION_FIELDS) };
    return savedOrNot(question ? update.mutateAsync({ id: question.id, body }, handlers) : add.mutateAsync(body, handlers));
  };
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist), scope });

  const changeKind = (next: QuestionKind) => {
    form.setValue("kind", next, { shouldDirty: true });
    options.replace(optionsFor(next, form.getValues("options")));
    form.setValue("correct", [], { shouldDirty: true });
    form.clearErrors();
  };
  const toggleCorrect = (index: number, on: boolean) => {
    const rest = correct.filter((i) => i !== index);
    form.setValue("correct", kind === "multiple" ? (on ? [...rest, index] : rest) : on ? [index] : [], {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
  };
  const removeOption = (index: number) => {
    options.remove(index);
    form.setValue(
      "correct",
      correct.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i)),
      { shouldDirty: true },
    );
  };
  const fixedOptions = kind === "truefalse";
  const correctLabel = (text: string, index: number) => `Option ${index + 1}${text ? ` (${text})` : ""} is correct`;

  return (
    <form
      noValidate
      aria-label={question ? `Edit question ${question.order}` : "New question"}
      className="grid gap-4 rounded-lg border border-primary/40 bg-muted/30 p-4"
      onSubmit={form.handleSubmit(persist)}
    >
      <FormField id={`${idPrefix}-kind`} label="Question type">
        <NativeSelect id={`${idPrefix}-kind`} value={kind} onChange={(event) => changeKind(event.target.value as QuestionKind)}>
          {QUESTION_KINDS.map((k) => (
            <option key={k} value={k}>
              {QUESTION_KIND_LABELS[k]}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField id={`${idPrefix}-prompt`} label="Question" error={errors.prompt?.message}>
        <Textarea
          id={`${idPrefix}-prompt`}
          rows={3}
          aria-invalid={errors.prompt ? true : undefined}
          aria-describedby={errors.prompt ? `${idPrefix}-prompt-error` : undefined}
          {...form.register("prompt")}
        />
      </FormField>

      {kind === "short" ? (
        <>
          <FormField
            id={`${idPrefix}-accepted`}
            label="Accepted answers"
            hint="One per line. Case, spacing and punctuation do not count."
            error={errors.accepted?.message}
          >
            <Textarea
              id={`${idPrefix}-accepted`}
              rows={3}
              aria-invalid={errors.accepted ? true : undefined}
              aria-describedby={errors.accepted ? `${idPrefix}-accepted-error` : undefined}
              {...form.register("accepted")}
            />
          </FormField>
          <Controller
            control={form.control}
            name="match"
            render={({ field }) => (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">An answer is right when it</legend>
                <RadioGroup aria-label="An answer is right when it" value={field.value} onValueChange={field.onChange} className="gap-2">
                  {SHORT_MATCHES.map((match) => (
                    <div key={match} className="flex items-start gap-2">
                      <RadioGroupItem id={`${idPrefix}-match-${match}`} value={match} className="mt-0.5" />
                      <Label htmlFor={`${idPrefix}-match-${match}`} className="grid gap-0.5 font-normal">
                        <span>{SHORT_MATCH_LABELS[match].label}</span>
                        <span className="text-muted-foreground">{SHORT_MATCH_LABELS[match].example}</span>
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
              </fieldset>
            )}
          />
          <Controller
            control={form.control}
            name="aiGrading"
            render={({ field }) => (
              <SwitchField
                label="Grade with AI"
                description="An answer not in the list is graded by the AI against your rubric; the learner sees its reasoning."
                checked={field.value}
                onChange={field.onChange}
              />
            )}
          />
          {form.watch("aiGrading") ? (
            <FormField id={`${idPrefix}-rubric`} label="Rubric" hint="What a correct answer must say." error={errors.rubric?.message}>
              <Textarea id={`${idPrefix}-rubric`} rows={3} {...form.register("rubric")} />
            </FormField>
          ) : null}
        </>
      ) : (
        <fieldset className="grid gap-2" aria-describedby={errors.correct || errors.options ? `${idPrefix}-options-error` : undefined}>
          <legend className="mb-1 text-sm font-medium">
            Options{" "}
            <span className="font-normal text-muted-foreground">
              (mark {kind === "multiple" ? "every correct one" : "the correct one"})
            </span>
          </legend>
          {kind === "multiple" ? null : (
            <RadioGroup
              aria-label="Correct option"
              value={correct[0] === undefined ? "" : String(correct[0])}
              onValueChange={(value) => toggleCorrect(Number(value), true)}
              className="gap-2"
            >
              {options.fields.map((field, index) => (
                <div key={field.id} className="flex items-center gap-2">
                  <RadioGroupItem value={String(index)} aria-label={correctLabel(form.watch(`options.${index}.text`), index)} />
                  <OptionText
                    form={form}
                    index={index}
                    idPrefix={idPrefix}
                    fixed={fixedOptions}
                    onRemove={() => removeOption(index)}
                    count={options.fields.length}
                  />
                </div>
              ))}
            </RadioGroup>
          )}
          {kind === "multiple"
            ? options.fields.map((field, index) => (
                <div key={field.id} className="flex items-center gap-2">
                  <Checkbox
                    checked={correct.includes(index)}
                    onCheckedChange={(on) => toggleCorrect(index, on === true)}
                    aria-label={correctLabel(form.watch(`options.${index}.text`), index)}
                  />
                  <OptionText
                    form={form}
                    index={index}
                    idPrefix={idPrefix}
                    fixed={false}
                    onRemove={() => removeOption(index)}
                    count={options.fields.length}
                  />
                </div>
              ))
            : null}
          {fixedOptions || options.fields.length >= 10 ? null : (
            <Button variant="outline" size="sm" className="w-fit" onClick={() => options.append({ text: "" })}>
              <Plus aria-hidden="true" />
              Add option
            </Button>
          )}
          <FieldError id={`${idPrefix}-options-error`} message={errors.options?.message ?? errors.correct?.message} />
        </fieldset>
      )}

      <FormField
        id={`${idPrefix}-explanation`}
        label="Explanation"
        hint="Shown with the answers, when the quiz shows them."
        error={errors.explanation?.message}
      >
        <Textarea id={`${idPrefix}-explanation`} rows={2} {...form.register("explanation")} />
      </FormField>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <ButtonSpinner /> : null}
          {pending ? "Saving..." : question ? "Save Question" : "Add Question"}
        </Button>
      </div>
    </form>
  );
}

function OptionText({
  form,
  index,
  idPrefix,
  fixed,
  count,
  onRemove,
}: {
  form: ReturnType<typeof useForm<QuestionFormValues>>;
  index: number;
  idPrefix: string;
  fixed: boolean;
  count: number;
  onRemove: () => void;
}) {
  if (fixed) return <span className="text-sm">{form.watch(`options.${index}.text`)}</span>;
  return (
    <>
      <Input
        id={`${idPrefix}-option-${index}`}
        aria-label={`Option ${index + 1}`}
        className="h-9 flex-1"
        autoComplete="off"
        {...form.register(`options.${index}.text`)}
      />
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        aria-label={`Remove option ${index + 1}`}
        disabled={count <= 2}
        onClick={onRemove}
      >
        <X aria-hidden="true" />
      </Button>
    </>
  );
}
