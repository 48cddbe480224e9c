import { Pencil, PlayCircle } from "lucide-react";
import { Link } from "wouter";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { courseEditPath, lessonPath } from "../../../lib/paths.js";
import { readingOrder } from "../use-course-outline.js";
import { ProgressBar } from "./progress-bar.js";

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** The sidebar: Start Learning (or Continue), progress, Quick Stats, learners and Edit Course for the owner or an admin. */
export function CourseNavigation({ outline }: { outline: CourseOutline }) {
  const { progress, learners, canEdit, course } = outline;
  const order = readingOrder(outline);
  const startId = progress.nextLessonId ?? order[0]?.lesson.id ?? null;
  const started = progress.completed > 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Course Navigation</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        {startId === null ? (
          <Button disabled className="w-full">
            <PlayCircle aria-hidden="true" />
            Start Learning
          </Button>
        ) : (
          <Button asChild className="w-full">
            <Link href={lessonPath(course.id, startId)}>
              <PlayCircle aria-hidden="true" />
              {started ? "Continue" : "Start Learning"}
            </Link>
          </Button>
        )}
        <div className="grid gap-1">
          <ProgressBar label="Your progress" value={progress.completed} max={progress.total} />
          <p className="text-xs text-muted-foreground">
            {progress.completed} of {progress.total} lessons completed
          </p>
        </div>
        <section aria-labelledby="quick-stats" className="grid gap-2">
          <h3 id="quick-stats" className="text-sm font-semibold">
            Quick Stats
          </h3>
          <dl className="grid gap-1.5">
            <Stat label="Modules" value={outline.modules.length} />
            <Stat label="Lessons" value={order.length} />
            <Stat label="Completed" value={progress.completed} />
            {canEdit && learners ? <Stat label="Learners started" value={learners.started} /> : null}
            {canEdit && learners ? <Stat label="Learners finished" value={learners.finished} /> : null}
          </dl>
        </section>
        {canEdit ? (
          <Button asChild variant="outline" className="w-full">
            <Link href={courseEditPath(course.id)}>
              <Pencil aria-hidden="true" />
              Edit Course
            </Link>
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
