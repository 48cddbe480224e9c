import type { AdminVideo } from "../../../../../../shared/contracts/admin-videos.js";
import { ConfirmDialog } from "../../../../../components/ui/confirm-dialog.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { notify } from "../../../../../lib/notify.js";
import { useDeleteVideo } from "../../videos-api.js";

export function DeleteVideoDialog({ video, onClose }: { video: AdminVideo; onClose: () => void }) {
  const remove = useDeleteVideo();
  return (
    <ConfirmDialog
      title="Delete video?"
      message={`Are you sure you want to delete "${video.title}"? It will disappear from every dashboard. This action cannot be undone.`}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(video.id, {
          onSuccess: () => {
            onClose();
            notify.success("Success", "Video has been deleted successfully");
          },
          onError: (error) => {
            onClose();
            notify.error("Error", `Failed to delete video: ${errorMessage(error)}`);
          },
        })
      }
    />
  );
}
