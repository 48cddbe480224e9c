import { useInfiniteQuery } from "@tanstack/react-query";
import { Plus, RefreshCw } from "lucide-react";
import { useState } from "react";
import type { Course } from "../../../../shared/contracts/courses.js";
import { ownerOrAdmin } from "../../../../shared/owner-or-admin.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent } from "../../../components/ui/card.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { useCurrentUser } from "../../../domain/session.js";
import { errorMessage } from "../../../lib/api-client.js";
import { type CourseScope, courseListQuery } from "../api.js";
import { useDeleteCourse } from "../course-mutations.js";
import { CourseCard } from "./course-card.js";

const EMPTY: Record<CourseScope, string> = {
  all: "No courses available.",
  mine: "You haven't created any courses yet.",
  public: "There are no public courses available.",
};

/** One tab of /courses: the grid (1, 2 or 3 columns), its empty state, More, and the delete confirmation. */
export function CourseList({ scope, onCreate }: { scope: CourseScope; onCreate: () => void }) {
  const { user } = useCurrentUser();
  const list = useInfiniteQuery(courseListQuery(scope));
  const remove = useDeleteCourse();
  const [deleting, setDeleting] = useState<Course | null>(null);

  if (list.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner label="Loading courses..." />
        <span aria-hidden="true">Loading courses...</span>
      </div>
    );
  }
  if (list.isError) {
    return (
      <Card>
        <CardContent className="grid justify-items-start gap-3 pt-6">
          <p className="font-medium">Failed to load courses.</p>
          <p className="text-sm text-muted-foreground">{errorMessage(list.error)}</p>
          <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw aria-hidden="true" className={list.isFetching ? "animate-spin" : undefined} />
            Retry
          </Button>
        </CardContent>
      </Card>
    );
  }
  const courses = list.data.pages.flatMap((page) => page.items);
  if (courses.length === 0) {
    return (
      <Card>
        <CardContent className="grid justify-items-center gap-4 py-12 text-center">
          <p className="text-muted-foreground">{EMPTY[scope]}</p>
          {scope === "mine" ? (
            <Button onClick={onCreate}>
              <Plus aria-hidden="true" />
              Create a Course
            </Button>
          ) : null}
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {courses.map((course) => (
          <CourseCard
            key={course.id}
            course={course}
            isOwner={course.userId === user?.id}
            canManage={ownerOrAdmin(user, course.userId)}
            onDelete={() => setDeleting(course)}
          />
        ))}
      </div>
      {list.hasNextPage ? (
        <Button
          variant="outline"
          className="justify-self-center"
          onClick={() => void list.fetchNextPage()}
          disabled={list.isFetchingNextPage}
        >
          {list.isFetchingNextPage ? "Loading..." : "Load more courses"}
        </Button>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.title}”?`}
          message="Are you sure you want to delete this course? This action cannot be undone."
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        />
      ) : null}
    </div>
  );
}
