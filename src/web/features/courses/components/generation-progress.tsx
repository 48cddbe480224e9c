import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Play, Square } from "lucide-react";
import { useEffect, useRef } from "react";
import type { GenerationRun } from "../../../../shared/contracts/courses.js";
import { Alert } from "../../../components/ui/alert.js";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner, Spinner } from "../../../components/ui/spinner.js";
import { notify } from "../../../lib/notify.js";
import { useGenerationControl } from "../ai-mutations.js";
import { generationQuery, refreshCourse } from "../api.js";
import { toastFailure } from "../course-toasts.js";
import { ProgressBar } from "./progress-bar.js";

/** Follows the latest run: lessons appear as they are written; the end of a run watched here is announced once. */
function useWatchRun(courseId: number, run: GenerationRun | null | undefined) {
  const client = useQueryClient();
  const previous = useRef(run);
  useEffect(() => {
    const before = previous.current;
    previous.current = run;
    if (!run || !before || before.id !== run.id) return;
    if (before.done !== run.done || before.status !== run.status) void refreshCourse(client, courseId);
    if (before.status !== "running") return;
    if (run.status === "done") notify.success("Course Content Generated");
    if (run.status === "failed") toastFailure("course", new Error(run.error ?? ""));
  }, [client, courseId, run]);
}

/** The progress of AI lesson writing, with Stop; Resume after a stop or a failure. Comes back on reload. */
export function GenerationProgress({ courseId }: { courseId: number }) {
  const run = useQuery(generationQuery(courseId)).data;
  const control = useGenerationControl(courseId);
  useWatchRun(courseId, run);
  if (!run || run.status === "done") return null;

  if (run.status === "running") {
    const writing = Math.min(run.done + 1, Math.max(run.total, 1));
    return (
      <div role="status" className="grid gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4">
        <div className="flex flex-wrap items-center gap-3">
          <Spinner className="size-4" label="Generating" />
          <p className="min-w-0 flex-1 text-sm font-medium break-words">
            Writing lesson {writing} of {run.total}
            {run.currentLessonTitle ? `: ${run.currentLessonTitle}` : ""}
          </p>
          <Button variant="outline" size="sm" disabled={control.isPending} onClick={() => control.mutate("stop")}>
            {control.isPending ? <ButtonSpinner /> : <Square aria-hidden="true" />}
            Stop
          </Button>
        </div>
        <ProgressBar label="Lessons written" value={run.done} max={run.total} />
      </div>
    );
  }

  return (
    <Alert variant={run.status === "failed" ? "destructive" : "default"} className="flex-wrap items-center">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="font-medium">
          {run.status === "failed" ? "Generation failed" : "Generation stopped"} after {run.done} of {run.total} lessons.
        </p>
        {run.status === "failed" && run.error ? <p className="break-words">{run.error}</p> : null}
      </div>
      <Button size="sm" disabled={control.isPending} onClick={() => control.mutate("resume")}>
        {control.isPending ? <ButtonSpinner /> : <Play aria-hidden="true" />}
        Resume
      </Button>
    </Alert>
  );
}
