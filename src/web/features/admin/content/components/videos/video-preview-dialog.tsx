import type { AdminVideo } from "../../../../../../shared/contracts/admin-videos.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../../../components/ui/dialog.js";
import { VideoStatus } from "./video-status.js";

/** Preview: the embedded player as the dashboard shows it, with the video's order and status. */
export function VideoPreviewDialog({ video, onClose }: { video: AdminVideo; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{video.title}</DialogTitle>
          <DialogDescription className={video.subtitle ? undefined : "sr-only"}>
            {video.subtitle ?? `Preview of ${video.title}`}
          </DialogDescription>
        </DialogHeader>
        {video.playerUrl ? (
          <div className="aspect-video w-full overflow-hidden rounded-lg bg-muted">
            <iframe
              src={video.playerUrl}
              title={video.title}
              className="size-full border-0"
              sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
              allow="autoplay; fullscreen; picture-in-picture"
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
        ) : (
          <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
            This address is not a video player the dashboard can embed, so the video is not shown there. Edit it and use an https YouTube,
            Vimeo or Loom link.
          </p>
        )}
        {video.description ? <p className="text-sm whitespace-pre-line text-muted-foreground">{video.description}</p> : null}
        <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          <div className="flex items-center gap-2">
            <dt className="text-muted-foreground">Order</dt>
            <dd className="font-medium tabular-nums">{video.order}</dd>
          </div>
          <div className="flex items-center gap-2">
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <VideoStatus active={video.isActive} />
            </dd>
          </div>
        </dl>
      </DialogContent>
    </Dialog>
  );
}
