import type { Personality } from "../../../../shared/contracts/personalities.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { useDeletePersonality } from "../api.js";

export function DeletePersonalityDialog({ personality, onClose }: { personality: Personality; onClose: () => void }) {
  const remove = useDeletePersonality();
  return (
    <ConfirmDialog
      title={`Delete “${personality.name}”?`}
      message="Delete this personality? Chats that use it will go back to the default assistant."
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(personality.id, {
          onSuccess: () => {
            onClose();
            notify.success("Personality deleted");
          },
          onError: (error) => notify.error("Error", errorMessage(error)),
        })
      }
    />
  );
}
