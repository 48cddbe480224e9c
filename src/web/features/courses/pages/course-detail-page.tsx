import { Redirect, useParams } from "wouter";
import { COURSE_FORBIDDEN } from "../../../../shared/contracts/courses.js";
import { BackLink } from "../../../components/back-link.js";
import { CourseStateView } from "../../../components/course-state-view.js";
import { LoadFailed } from "../../../components/ui/load-failed.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.js";
import { usePageTitle } from "../../../lib/page-title.js";
import { paths } from "../../../lib/paths.js";
import { parseId } from "../../../lib/route-id.js";
import { CourseAnalytics } from "../components/course-analytics.js";
import { CourseBadges } from "../components/course-badges.js";
import { CourseContentList } from "../components/course-content-list.js";
import { CourseCover } from "../components/course-cover.js";
import { CourseNavigation } from "../components/course-navigation.js";
import { CourseOverview } from "../components/course-overview.js";
import { useCourseOutline } from "../use-course-outline.js";

/** /courses/{id}: the course, its content and the reader's way through it. */
export function CourseDetailPage() {
  const id = parseId(useParams<{ id: string }>().id);
  if (id === null) return <Redirect to={paths.courses} replace />;
  return <CourseDetail id={id} />;
}

function CourseDetail({ id }: { id: number }) {
  const { query, failure } = useCourseOutline(id);
  usePageTitle(failure === "missing" ? "Course not found" : query.data?.course.title, "Courses");
  if (failure === "missing")
    return <CourseStateView kind="missing" title="Course not found" backHref={paths.courses} backLabel="Back to Courses" />;
  if (failure === "forbidden") {
    return (
      <CourseStateView
        kind="denied"
        title="Access Restricted"
        message={COURSE_FORBIDDEN}
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
  const outline = query.data;
  return (
    <div className="grid gap-6">
      <BackLink href={paths.courses} label="Back to Courses" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 content-start gap-6 lg:col-span-2">
          <header className="grid gap-4 overflow-hidden rounded-xl border bg-card sm:grid-cols-[minmax(0,14rem)_1fr]">
            <CourseCover course={outline.course} className="h-full max-h-48 sm:max-h-none" />
            <div className="grid content-center gap-3 p-5 sm:pl-0">
              <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{outline.course.title}</h1>
              <CourseBadges course={outline.course} />
              <p className="line-clamp-3 text-sm break-words text-muted-foreground">
                {outline.course.description || "No description provided"}
              </p>
            </div>
          </header>
          <Tabs defaultValue="content">
            <TabsList className={`grid h-auto sm:w-fit sm:min-w-sm ${outline.canEdit ? "grid-cols-3" : "grid-cols-2"}`}>
              <TabsTrigger value="content" className="py-1.5">
                Course Content
              </TabsTrigger>
              <TabsTrigger value="overview" className="py-1.5">
                Overview
              </TabsTrigger>
              {outline.canEdit ? (
                <TabsTrigger value="analytics" className="py-1.5">
                  Analytics
                </TabsTrigger>
              ) : null}
            </TabsList>
            <TabsContent value="content">
              <CourseContentList outline={outline} />
            </TabsContent>
            <TabsContent value="overview">
              <CourseOverview outline={outline} />
            </TabsContent>
            {outline.canEdit ? (
              <TabsContent value="analytics">
                <CourseAnalytics courseId={outline.course.id} />
              </TabsContent>
            ) : null}
          </Tabs>
        </div>
        <aside aria-label="Course Navigation" className="lg:sticky lg:top-24 lg:self-start">
          <CourseNavigation outline={outline} />
        </aside>
      </div>
    </div>
  );
}
