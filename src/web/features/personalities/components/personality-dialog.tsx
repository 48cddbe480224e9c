import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { type Personality, personalityBodySchema } from "../../../../shared/contracts/personalities.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useCreatePersonality, useUpdatePersonality } from "../api.js";
import { PersonalityFields } from "./personality-fields.js";
import {
  PERSONALITY_FIELDS,
  type PersonalityFormInput,
  type PersonalityFormOutput,
  personalityFormValues,
} from "./personality-form-values.js";

/** New Personality (no `personality`) or Edit, in one dialog; the shared contract validates it. */
export function PersonalityDialog({ personality, onClose }: { personality?: Personality; onClose: () => void }) {
  const form = useForm<PersonalityFormInput, unknown, PersonalityFormOutput>({
    resolver: zodResolver(personalityBodySchema),
    defaultValues: personalityFormValues(personality),
  });
  const create = useCreatePersonality();
  const update = useUpdatePersonality();
  const pending = create.isPending || update.isPending;

  const onError = (error: unknown) => {
    applyServerFieldErrors(form.setError, error, PERSONALITY_FIELDS);
    notify.error("Error", errorMessage(error));
  };
  const persist = (body: PersonalityFormOutput) =>
    savedOrNot(
      personality
        ? update.mutateAsync(
            { id: personality.id, body },
            {
              onSuccess: () => {
                notify.success("Personality updated");
                onClose();
              },
              onError,
            },
          )
        : create.mutateAsync(body, {
            onSuccess: () => {
              notify.success("Personality created");
              onClose();
            },
            onError,
          }),
    );
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{personality ? "Edit personality" : "New personality"}</DialogTitle>
          <DialogDescription>A role, a tone and instructions the assistant follows in the chats that use it.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-5" onSubmit={onSubmit}>
          <PersonalityFields form={form} />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <ButtonSpinner /> : null}
              {pending ? "Saving..." : personality ? "Save changes" : "Create personality"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
