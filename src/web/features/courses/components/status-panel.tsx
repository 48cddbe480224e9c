import { Eye, Send, Undo2 } from "lucide-react";
import { Link } from "wouter";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { coursePath } from "../../../lib/paths.js";
import { useUpdateCourse } from "../course-mutations.js";
import { courseVisibilityText } from "../course-visibility.js";

function Row({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="flex items-center justify-between gap-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

/** Course Status: counts, status, visibility, Publish Course / Switch to Draft (saved at once) and View Course. */
export function StatusPanel({ outline }: { outline: CourseOutline }) {
  const { course } = outline;
  const update = useUpdateCourse(course.id);
  const published = course.status === "published";
  const lessons = outline.modules.reduce((sum, module) => sum + module.lessons.length, 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Course Status</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2">
          <Row label="Modules" value={outline.modules.length} />
          <Row label="Lessons" value={lessons} />
          <Row label="Status" value={published ? "Published" : "Draft"} />
          <Row label="Visibility" value={course.isPublic ? "Public" : "Private"} />
        </dl>
        <p className="text-xs text-muted-foreground">
          {courseVisibilityText({ published, isPublic: course.isPublic, listedInCatalog: course.listedInCatalog })}
        </p>
        <Button
          variant={published ? "outline" : "default"}
          disabled={update.isPending}
          onClick={() => update.mutate({ status: published ? "draft" : "published" })}
        >
          {update.isPending ? <ButtonSpinner /> : published ? <Undo2 aria-hidden="true" /> : <Send aria-hidden="true" />}
          {published ? "Switch to Draft" : "Publish Course"}
        </Button>
        <Button asChild variant="ghost">
          <Link href={coursePath(course.id)}>
            <Eye aria-hidden="true" />
            View Course
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
