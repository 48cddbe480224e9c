import { useQuery } from "@tanstack/react-query";
import { ChevronDown, History, RotateCcw } from "lucide-react";
import { useState } from "react";
import type { Lesson } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { cn } from "../../../lib/cn.js";
import { versionsQuery } from "../api.js";
import { useRestoreVersion } from "../lesson-mutations.js";

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** Earlier contents of the lesson (newest first), each with Restore; read when opened. */
export function LessonVersions({
  courseId,
  lessonId,
  onRestored,
}: {
  courseId: number;
  lessonId: number;
  onRestored: (l: Lesson) => void;
}) {
  const [open, setOpen] = useState(false);
  const versions = useQuery({ ...versionsQuery(lessonId), enabled: open });
  const restore = useRestoreVersion(courseId);
  const panelId = `lesson-${lessonId}-versions`;
  return (
    <div className="grid gap-2">
      <Button variant="ghost" size="sm" className="w-fit" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <History aria-hidden="true" />
        Versions
        <ChevronDown aria-hidden="true" className={cn("transition-transform", open && "rotate-180")} />
      </Button>
      {open ? (
        <div id={panelId} className="grid gap-2 rounded-md border bg-background p-3 text-sm">
          {versions.isPending ? (
            <Spinner label="Loading versions..." />
          ) : versions.isError ? (
            <p className="text-destructive">{errorMessage(versions.error)}</p>
          ) : versions.data.length === 0 ? (
            <p className="text-muted-foreground">No earlier versions. Saving changed content keeps the previous one here.</p>
          ) : (
            <ul className="grid max-h-64 gap-2 overflow-y-auto">
              {versions.data.map((version) => (
                <li key={version.id} className="flex items-start justify-between gap-3 rounded-md border p-2">
                  <div className="grid min-w-0 gap-0.5">
                    <span className="font-medium">{when(version.createdAt)}</span>
                    <span className="line-clamp-2 text-xs break-words text-muted-foreground">{version.content.slice(0, 300)}</span>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={restore.isPending}
                    aria-label={`Restore the version of ${when(version.createdAt)}`}
                    onClick={() => restore.mutate({ lessonId, versionId: version.id }, { onSuccess: onRestored })}
                  >
                    <RotateCcw aria-hidden="true" />
                    Restore
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
