import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { moduleBodySchema } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { type LeaveScope, savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { DripDaysField, dripDaysValue } from "./drip-days-field.js";

const schema = moduleBodySchema.omit({ order: true });
type Input = z.input<typeof schema>;
type Output = z.output<typeof schema>;

/**
 * A module's title (required) and description: in the Add Module dialog and inline when editing one.
 * `onSubmit` saves (its promise fails when the save does); `scope`: where leaving it asks first (its dialog).
 */
export function ModuleForm({
  idPrefix,
  initial,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
  onCancel,
  scope,
}: {
  idPrefix: string;
  initial?: { title: string; description: string; releaseAfterDays?: number | null };
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (body: Output) => Promise<unknown>;
  onCancel: () => void;
  scope?: LeaveScope;
}) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: initial?.title ?? "",
      description: initial?.description ?? "",
      releaseAfterDays: initial?.releaseAfterDays ?? null,
    },
  });
  const { errors } = form.formState;
  const persist = (body: Output) =>
    savedOrNot(
      onSubmit(body).catch((error: unknown) => {
        applyServerFieldErrors(form.setError, error, ["title", "description", "releaseAfterDays"]);
        throw error;
      }),
    );
  const submit = form.handleSubmit(persist);
  useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist), scope });
  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <TextField
        id={`${idPrefix}-title`}
        label="Module title"
        autoComplete="off"
        error={errors.title?.message}
        {...form.register("title")}
      />
      <FormField id={`${idPrefix}-description`} label="Module description" error={errors.description?.message}>
        <Textarea id={`${idPrefix}-description`} rows={3} {...form.register("description")} />
      </FormField>
      <DripDaysField
        id={`${idPrefix}-release`}
        hint="Its lessons open this many days after a learner starts the course, unless a lesson says otherwise."
        error={errors.releaseAfterDays?.message}
        {...form.register("releaseAfterDays", dripDaysValue)}
      />
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <ButtonSpinner /> : null}
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
