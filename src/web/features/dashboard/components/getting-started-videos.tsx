import { useQuery } from "@tanstack/react-query";
import { Video } from "lucide-react";
import { useState } from "react";
import type { GettingStartedVideo } from "../../../../shared/contracts/public-content.js";
import { gettingStartedVideosQuery } from "../api.js";
import { VideoCard } from "./video-card.js";
import { VideoDialog } from "./video-dialog.js";

const gridClass = "grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3";

/** Grid of video cards (1, 2 or 3 columns); a failed load shows the empty state too. */
export function GettingStartedVideos() {
  const videos = useQuery(gettingStartedVideosQuery);
  const [selected, setSelected] = useState<GettingStartedVideo | null>(null);
  const list = videos.data ?? [];

  return (
    <section aria-labelledby="videos-heading" className="grid gap-4">
      <h2 id="videos-heading" className="text-xl font-semibold tracking-tight sm:text-2xl">
        Getting Started Videos
      </h2>
      {videos.isPending ? (
        <div className={gridClass} role="status" aria-label="Loading videos">
          {[0, 1, 2].map((n) => (
            <div key={n} className="aspect-video animate-pulse rounded-xl bg-muted" />
          ))}
        </div>
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-10 text-center">
          <Video className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="text-muted-foreground">No getting started videos available yet.</p>
        </div>
      ) : (
        <ul className={gridClass}>
          {list.map((video) => (
            <li key={video.id}>
              <VideoCard video={video} onSelect={setSelected} />
            </li>
          ))}
        </ul>
      )}
      <VideoDialog video={selected} onClose={() => setSelected(null)} />
    </section>
  );
}
