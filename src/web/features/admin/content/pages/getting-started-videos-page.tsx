import { useQuery } from "@tanstack/react-query";
import { Plus, Video } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../../components/ui/button.js";
import { Card, CardContent } from "../../../../components/ui/card.js";
import { LoadFailed } from "../../../../components/ui/load-failed.js";
import { Spinner } from "../../../../components/ui/spinner.js";
import { usePageTitle } from "../../../../lib/page-title.js";
import { AdminShell } from "../../common/components/admin-shell.js";
import { VideoDialog } from "../components/videos/video-dialog.js";
import { VideosTable } from "../components/videos/videos-table.js";
import { adminVideosQuery } from "../videos-api.js";

/** /admin/getting-started: the videos every user sees on the dashboard, in order (docs/product.md, Admin back office). */
export function GettingStartedVideosPage() {
  usePageTitle("Getting Started Videos", "Admin");
  const videos = useQuery(adminVideosQuery);
  const [adding, setAdding] = useState(false);
  const list = videos.data ?? [];

  return (
    <AdminShell>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="space-y-1">
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Getting Started Videos</h1>
            <p className="text-muted-foreground">The videos on every user's dashboard. Only active ones are shown, in this order.</p>
          </div>
          {videos.isSuccess && list.length > 0 ? (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" />
              Add Video
            </Button>
          ) : null}
        </div>
        {videos.isPending ? (
          <div className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner label="Loading videos..." />
            <span aria-hidden="true">Loading videos...</span>
          </div>
        ) : videos.isError ? (
          <LoadFailed
            title="Failed to load videos. Please try again."
            error={videos.error}
            retrying={videos.isFetching}
            onRetry={() => void videos.refetch()}
          />
        ) : list.length === 0 ? (
          <Card>
            <CardContent className="grid justify-items-center gap-4 py-12 text-center">
              <Video className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground">No getting started videos found.</p>
              <Button onClick={() => setAdding(true)}>
                <Plus aria-hidden="true" />
                Add Your First Video
              </Button>
            </CardContent>
          </Card>
        ) : (
          <VideosTable videos={list} />
        )}
      </div>
      {adding ? <VideoDialog videos={list} onClose={() => setAdding(false)} /> : null}
    </AdminShell>
  );
}
