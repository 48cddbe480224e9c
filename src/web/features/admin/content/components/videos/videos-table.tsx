import { ChevronDown, ChevronUp, Eye, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import type { AdminVideo } from "../../../../../../shared/contracts/admin-videos.js";
import { Button } from "../../../../../components/ui/button.js";
import { errorMessage } from "../../../../../lib/api-client.js";
import { notify } from "../../../../../lib/notify.js";
import { movedSequence, useReorderVideos } from "../../videos-api.js";
import { DeleteVideoDialog } from "./delete-video-dialog.js";
import { VideoDialog } from "./video-dialog.js";
import { VideoPreviewDialog } from "./video-preview-dialog.js";
import { VideoStatus } from "./video-status.js";

const th = "px-3 py-2.5 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase";

/**
 * The videos in order (docs/product.md, Admin back office): Order with up and down arrows, Title, Subtitle, Status, and preview, edit and
 * delete. Below 768 px each row becomes a small card (same cells, laid out in a grid).
 */
export function VideosTable({ videos }: { videos: AdminVideo[] }) {
  const reorder = useReorderVideos();
  const [previewing, setPreviewing] = useState<AdminVideo | null>(null);
  const [editing, setEditing] = useState<AdminVideo | null>(null);
  const [deleting, setDeleting] = useState<AdminVideo | null>(null);

  const move = (video: AdminVideo, direction: "up" | "down") =>
    reorder.mutate(movedSequence(videos, video.id, direction), {
      onSuccess: () => notify.success("Success", "Videos have been reordered successfully"),
      onError: (error) => notify.error("Error", `Failed to reorder videos: ${errorMessage(error)}`),
    });

  return (
    <>
      <div className="overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm">
        <table className="w-full text-sm">
          <thead className="border-b bg-muted/40 max-md:sr-only">
            <tr>
              <th scope="col" className={`${th} w-28 pl-4`}>
                Order
              </th>
              <th scope="col" className={th}>
                Title
              </th>
              <th scope="col" className={th}>
                Subtitle
              </th>
              <th scope="col" className={`${th} w-28`}>
                Status
              </th>
              <th scope="col" className={`${th} w-36 pr-4 text-right`}>
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {videos.map((video, index) => (
              <tr
                key={video.id}
                aria-label={video.title}
                className="border-b align-middle last:border-0 max-md:grid max-md:grid-cols-[auto_minmax(0,1fr)_auto] max-md:items-center max-md:gap-x-3 max-md:gap-y-1 max-md:p-3"
              >
                <td className="py-3 pr-2 pl-4 max-md:row-span-2 max-md:p-0">
                  <div className="flex items-center gap-2">
                    <div className="flex flex-col">
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-7"
                        aria-label={`Move ${video.title} up`}
                        disabled={index === 0 || reorder.isPending}
                        onClick={() => move(video, "up")}
                      >
                        <ChevronUp aria-hidden="true" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-7"
                        aria-label={`Move ${video.title} down`}
                        disabled={index === videos.length - 1 || reorder.isPending}
                        onClick={() => move(video, "down")}
                      >
                        <ChevronDown aria-hidden="true" />
                      </Button>
                    </div>
                    <span className="w-6 text-center font-medium tabular-nums" title="Order">
                      {video.order}
                    </span>
                  </div>
                </td>
                <td className="px-3 py-3 max-md:p-0">
                  <p className="font-medium break-words">{video.title}</p>
                  {video.subtitle ? (
                    <p aria-hidden="true" className="line-clamp-2 text-muted-foreground md:hidden">
                      {video.subtitle}
                    </p>
                  ) : null}
                  {video.playerUrl ? null : (
                    <p className="mt-0.5 text-xs text-destructive">Not shown on the dashboard: this address cannot be embedded.</p>
                  )}
                </td>
                <td className="px-3 py-3 text-muted-foreground max-md:hidden">
                  <span className="line-clamp-2">{video.subtitle ?? "—"}</span>
                </td>
                <td className="px-3 py-3 max-md:p-0">
                  <VideoStatus active={video.isActive} />
                </td>
                <td className="py-3 pr-4 pl-3 max-md:col-span-2 max-md:col-start-2 max-md:p-0">
                  <div className="flex justify-end gap-1">
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Preview ${video.title}`}
                      onClick={() => setPreviewing(video)}
                    >
                      <Eye aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Edit ${video.title}`}
                      onClick={() => setEditing(video)}
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                      aria-label={`Delete ${video.title}`}
                      onClick={() => setDeleting(video)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {previewing ? <VideoPreviewDialog video={previewing} onClose={() => setPreviewing(null)} /> : null}
      {editing ? <VideoDialog video={editing} videos={videos} onClose={() => setEditing(null)} /> : null}
      {deleting ? <DeleteVideoDialog video={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
