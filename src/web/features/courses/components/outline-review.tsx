import { zodResolver } from "@hookform/resolvers/zod";
import { Info, Plus } from "lucide-react";
import type { ReactNode } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { type OutlineProposal, outlineDraftSchema } from "../../../../shared/contracts/courses.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { FieldError } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { arrayError, type OutlineInput, OutlineModuleFields, type OutlineOutput } from "./outline-module-fields.js";

/** The proposed outline, editable before anything is created; Approve and create appends it to the course. */
export function OutlineReview({
  proposal,
  pending,
  onApprove,
  onBack,
  fresh = false,
  grounded = false,
  failure = null,
}: {
  proposal: OutlineProposal;
  /** Proposed from the author's material: a lesson with no planned source says so (decision 067). */
  grounded?: boolean;
  /** A course made for this outline: there is nothing already in it to speak of. */
  fresh?: boolean;
  pending: boolean;
  /** Why the last approve failed, shown above the buttons (decision 059). */
  failure?: ReactNode;
  onApprove: (outline: OutlineOutput) => void;
  onBack: () => void;
}) {
  const form = useForm<OutlineInput, unknown, OutlineOutput>({
    resolver: zodResolver(outlineDraftSchema),
    defaultValues: { modules: proposal.modules },
  });
  const modules = useFieldArray({ control: form.control, name: "modules" });
  const lessonCount = form.watch("modules").reduce((sum, m) => sum + (m.lessons?.length ?? 0), 0);
  return (
    <form noValidate className="grid gap-4" onSubmit={form.handleSubmit(onApprove)}>
      {proposal.source === "template" && proposal.notice ? (
        <Alert>
          <Info aria-hidden="true" />
          <p>{proposal.notice}</p>
        </Alert>
      ) : null}
      <p className="text-sm text-muted-foreground">
        {modules.fields.length} modules, {lessonCount} lessons.
        {fresh ? null : " New modules go after the existing ones; nothing you already have is changed."}
      </p>
      <div className="grid gap-3">
        {modules.fields.map((field, index) => (
          <OutlineModuleFields key={field.id} form={form} index={index} onRemove={() => modules.remove(index)} grounded={grounded} />
        ))}
      </div>
      <FieldError id="outline-modules-error" message={arrayError(form.formState.errors.modules)} />
      <Button
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() => modules.append({ title: "", description: "", lessons: [{ title: "", type: "reading", summary: "" }] })}
      >
        <Plus aria-hidden="true" />
        Add module
      </Button>
      {failure}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onBack} disabled={pending}>
          Back
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <ButtonSpinner /> : null}
          {pending ? "Creating..." : "Approve and create"}
        </Button>
      </div>
    </form>
  );
}
