import type { Chat } from "../../../../shared/contracts/chat.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { useDeleteChat } from "../api.js";

export function DeleteChatDialog({ chat, onClose, onDeleted }: { chat: Chat; onClose: () => void; onDeleted: (chat: Chat) => void }) {
  const remove = useDeleteChat();
  return (
    <ConfirmDialog
      title={`Delete “${chat.title}”?`}
      message="Delete this chat? Its messages will be deleted too. This cannot be undone."
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(chat.id, {
          onSuccess: () => {
            onDeleted(chat);
            onClose();
            notify.success("Chat deleted");
          },
          onError: (error) => notify.error("Delete failed", errorMessage(error)),
        })
      }
    />
  );
}
