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
import { useUpdateChat } from "../api.js";

const renameSchema = z.object({ title: createChatBodySchema.shape.title.unwrap() });
type RenameValues = z.input<typeof renameSchema>;

/** Enter saves, Escape cancels. */
export function RenameChatDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const update = useUpdateChat();
  const form = useForm<RenameValues, unknown, z.output<typeof renameSchema>>({
    resolver: zodResolver(renameSchema),
    defaultValues: { title: chat.title },
  });
  const onSubmit = form.handleSubmit(({ title }) => {
    if (title === chat.title) return onClose();
    update.mutate(
      { id: chat.id, body: { title } },
      {
        onSuccess: onClose,
        onError: (error) => {
          if (applyServerFieldErrors(form.setError, error, ["title"]).length === 0) notify.error("Rename failed", errorMessage(error));
        },
      },
    );
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
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
            <Button variant="outline" onClick={onClose}>
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
