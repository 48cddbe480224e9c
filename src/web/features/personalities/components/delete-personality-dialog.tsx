import type { Personality } from "../../../../shared/contracts/personalities.js";
import { Button } from "../../../components/ui/button.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { notify } from "../../../lib/notify.js";
import { useDeletePersonality } from "../api.js";

export function DeletePersonalityDialog({ personality, onClose }: { personality: Personality; onClose: () => void }) {
  const remove = useDeletePersonality();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Delete “{personality.name}”?</DialogTitle>
          <DialogDescription>Delete this personality? Chats that use it will go back to the default assistant.</DialogDescription>
        </DialogHeader>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(personality.id, {
                onSuccess: () => {
                  onClose();
                  notify.success("Personality deleted");
                },
                onError: (error) => notify.error("Error", errorMessage(error)),
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
