import type { Chat } from "../../../../shared/contracts/chat.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { useDeleteChat } from "../api.js";

export function DeleteChatDialog({ chat, onClose, onDeleted }: { chat: Chat; onClose: () => void; onDeleted: (chat: Chat) => void }) {
  const remove = useDeleteChat();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete “{chat.title}”?</DialogTitle>
          <DialogDescription>Delete this chat? Its messages will be deleted too. This cannot be undone.</DialogDescription>
        </DialogHeader>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(chat.id, {
                onSuccess: () => {
                  onDeleted(chat);
                  onClose();
                  notify.success("Chat deleted");
                },
                onError: (error) => notify.error("Delete failed", errorMessage(error)),
              })
            }
          >
            {remove.isPending ? <ButtonSpinner /> : null}
            {remove.isPending ? "Deleting..." : "Delete"}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
