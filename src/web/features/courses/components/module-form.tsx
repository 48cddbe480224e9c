import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { moduleBodySchema } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { FormField, TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { Textarea } from "../../../components/ui/textarea.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";

const schema = moduleBodySchema.omit({ order: true });
type Input = z.input<typeof schema>;
type Output = z.output<typeof schema>;

/** A module's title (required) and description: in the Add Module dialog and inline when editing one. */
export function ModuleForm({
  idPrefix,
  initial,
  submitLabel,
  pendingLabel,
  pending,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  initial?: { title: string; description: string };
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: (body: Output, onError: (error: unknown) => void) => void;
  onCancel: () => void;
}) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: initial ?? { title: "", description: "" },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((body) =>
    onSubmit(body, (error) => applyServerFieldErrors(form.setError, error, ["title", "description"])),
  );
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
