import { PlayCircle } from "lucide-react";
import type { GettingStartedVideo } from "../../../../shared/contracts/public-content.js";

/** A card that opens the video's player. */
export function VideoCard({ video, onSelect }: { video: GettingStartedVideo; onSelect: (video: GettingStartedVideo) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSelect(video)}
      className="group flex h-full w-full flex-col overflow-hidden rounded-xl border bg-card text-left shadow-sm transition-colors outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex aspect-video w-full items-center justify-center bg-gradient-to-br from-primary/25 via-primary/10 to-muted">
        <PlayCircle className="size-12 text-primary transition-transform group-hover:scale-110" aria-hidden="true" />
      </span>
      <span className="grid gap-1 p-4">
        <span className="font-semibold">{video.title}</span>
        {video.subtitle ? <span className="text-sm text-muted-foreground">{video.subtitle}</span> : null}
      </span>
    </button>
  );
}
