import { type AiPrompt, promptKeyUse } from "../../../../../../shared/contracts/ai-prompts.js";
import { ConfirmDialog } from "../../../../../components/ui/confirm-dialog.js";
import { notify } from "../../../../../lib/notify.js";
import { useDeletePrompt } from "../../prompts-api.js";
import { promptFailure } from "./prompt-messages.js";

/** What deleting this key changes in the product. */
function consequence(key: string): string {
  if (!promptKeyUse(key)) return "Nothing in the product reads this key.";
  return key === "chat-system" ? "Chats will then send no global system prompt." : "The course builder will then use its built-in default.";
}

export function DeletePromptDialog({ prompt, onClose }: { prompt: AiPrompt; onClose: () => void }) {
  const remove = useDeletePrompt();
  return (
    <ConfirmDialog
      title="Delete AI prompt?"
      message={`Are you sure you want to delete the "${prompt.key}" prompt? ${consequence(prompt.key)} This action cannot be undone.`}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(prompt.id, {
          onSuccess: () => {
            onClose();
            notify.success("AI prompt deleted successfully");
          },
          onError: (error) => notify.error("Error", promptFailure(error, "delete")),
        })
      }
    />
  );
}
