import { Award, Pencil, PlayCircle } from "lucide-react";
import { Link } from "wouter";
import { certificatesApi } from "../../../../shared/contracts/assessment.js";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { endpointUrl } from "../../../lib/api-client.js";
import { certificatePath } from "../../../lib/app-paths.js";
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

/** A completed course: the learner's certificate as a PDF (the browser downloads it with the session cookie) and its public page. */
function CertificateLinks({ courseId, code }: { courseId: number; code: string }) {
  return (
    <div className="grid gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3">
      <p className="text-sm font-medium">You completed this course.</p>
      <Button asChild className="w-full">
        <a href={endpointUrl(certificatesApi.certificate, { params: { id: courseId } })} download>
          <Award aria-hidden="true" />
          Download certificate
        </a>
      </Button>
      <a className="text-center text-xs text-primary underline-offset-4 hover:underline" href={certificatePath(code)}>
        Verification page
      </a>
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
            {progress.completed} of {progress.total} lessons and quizzes completed
          </p>
        </div>
        {progress.complete && progress.certificateCode ? <CertificateLinks courseId={course.id} code={progress.certificateCode} /> : null}
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
