import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { type Chat, createChatBodySchema } from "../../../../shared/contracts/chat.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { TextField } from "../../../components/ui/form-field.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { applyServerFieldErrors } from "../../../lib/form-errors.js";
import { notify } from "../../../lib/notify.js";
import { savedOrNot, saveForm, useUnsavedChanges } from "../../../lib/unsaved-changes.js";
import { useUpdateChat } from "../api.js";

const renameSchema = z.object({ title: createChatBodySchema.shape.title.unwrap() });
type RenameValues = z.input<typeof renameSchema>;

/** Enter saves; Escape closes, asking first when the title was changed. */
export function RenameChatDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const update = useUpdateChat();
  const form = useForm<RenameValues, unknown, z.output<typeof renameSchema>>({
    resolver: zodResolver(renameSchema),
    defaultValues: { title: chat.title },
  });
  const persist = async ({ title }: z.output<typeof renameSchema>) => {
    if (title === chat.title) {
      onClose();
      return true;
    }
    return savedOrNot(
      update.mutateAsync(
        { id: chat.id, body: { title } },
        {
          onSuccess: onClose,
          onError: (error) => {
            if (applyServerFieldErrors(form.setError, error, ["title"]).length === 0) notify.error("Rename failed", errorMessage(error));
          },
        },
      ),
    );
  };
  const onSubmit = form.handleSubmit(persist);
  const unsaved = useUnsavedChanges({ dirty: form.formState.isDirty, save: saveForm(form, persist) });
  return (
    <Dialog open onOpenChange={(open) => !open && !update.isPending && unsaved.confirmLeave(onClose)}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Rename chat</DialogTitle>
          <DialogDescription>Give this chat a name you will recognise in your history.</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={onSubmit}>
          <TextField
            id="rename-chat-title"
            label="Chat title"
            autoComplete="off"
            maxLength={200}
            error={form.formState.errors.title?.message}
            {...form.register("title")}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? <ButtonSpinner /> : null}
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
