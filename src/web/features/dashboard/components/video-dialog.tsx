import type { GettingStartedVideo } from "../../../../shared/contracts/public-content.js";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.js";

/** The modal player; closing it clears the selection. */
export function VideoDialog({ video, onClose }: { video: GettingStartedVideo | null; onClose: () => void }) {
  return (
    <Dialog open={video !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-4xl">
        {video ? (
          <>
            <DialogHeader>
              <DialogTitle>{video.title}</DialogTitle>
              <DialogDescription className={video.subtitle ? undefined : "sr-only"}>
                {video.subtitle ?? `Video: ${video.title}`}
              </DialogDescription>
            </DialogHeader>
            <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
              <iframe
                src={video.embedUrl}
                title={video.title}
                className="size-full border-0"
                sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
                allow="autoplay; fullscreen; picture-in-picture"
                referrerPolicy="strict-origin-when-cross-origin"
              />
            </div>
            {video.description ? <p className="text-sm whitespace-pre-line text-muted-foreground">{video.description}</p> : null}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
