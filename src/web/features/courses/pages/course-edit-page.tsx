import { Redirect, useParams } from "wouter";
import { COURSE_EDIT_FORBIDDEN } from "../../../../shared/contracts/courses.js";
import { CourseStateView } from "../../../components/course-state-view.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { parseId } from "../../../lib/route-id.js";
import { CourseEditor } from "../components/course-editor.js";
import { useCourseOutline } from "../use-course-outline.js";

/** /courses/{id}/edit: only the owner or an admin; anyone else sees Access Denied. */
export function CourseEditPage() {
  const id = parseId(useParams<{ id: string }>().id);
  if (id === null) return <Redirect to={paths.courses} replace />;
  return <CourseEdit id={id} />;
}

function CourseEdit({ id }: { id: number }) {
  const { query, failure } = useCourseOutline(id);
  usePageTitle("Edit", failure === "missing" ? "Course Not Found" : query.data?.course.title, "Courses");
  if (failure === "missing")
    return <CourseStateView kind="missing" title="Course Not Found" backHref={paths.courses} backLabel="Back to Courses" />;
  if (failure === "forbidden" || query.data?.canEdit === false) {
    return (
      <CourseStateView
        kind="denied"
        title="Access Denied"
        message={COURSE_EDIT_FORBIDDEN}
        backHref={paths.courses}
        backLabel="Back to Courses"
      />
    );
  }
  if (failure === "failed") {
    return (
      <LoadFailed
        className="mx-auto max-w-xl"
        title="Failed to load the course."
        error={query.error}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.data) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner label="Loading course..." />
        <span aria-hidden="true">Loading course...</span>
      </div>
    );
  }
  return <CourseEditor outline={query.data} />;
}
