import { Eye, Pencil, Trash2 } from "lucide-react";
import { Link } from "wouter";
import type { Course } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { courseEditPath, coursePath } from "../../../lib/paths.js";
import { CourseBadges } from "./course-badges.js";
import { CourseCover } from "./course-cover.js";

/** One course of the grid: cover, title, badges, two lines of description, and what this user may do with it. */
export function CourseCard({
  course,
  isOwner,
  canManage,
  onDelete,
}: {
  course: Course;
  isOwner: boolean;
  canManage: boolean;
  onDelete: () => void;
}) {
  const titleId = `course-${course.id}-title`;
  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col overflow-hidden">
      <CourseCover course={course} />
      <CardHeader className="gap-2 pb-3">
        <CardTitle id={titleId} className="line-clamp-2 break-words">
          {course.title}
        </CardTitle>
        <CourseBadges course={course} />
      </CardHeader>
      <CardContent className="grid flex-1 content-between gap-4">
        <div className="grid gap-2">
          <CardDescription className="line-clamp-2 min-h-10 break-words">{course.description || "No description provided"}</CardDescription>
          {isOwner ? <p className="text-xs font-medium text-primary">Created by you</p> : null}
        </div>
        <div className="flex flex-wrap items-center justify-end gap-2">
          {canManage ? (
            <Button
              variant="ghost"
              size="sm"
              className="-ml-2 text-destructive hover:text-destructive"
              onClick={onDelete}
              aria-label={`Delete ${course.title}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          ) : null}
          <div className="ml-auto flex gap-2">
            <Button asChild variant="outline" size="sm">
              <Link href={coursePath(course.id)} aria-label={`View Course ${course.title}`}>
                <Eye aria-hidden="true" />
                View Course
              </Link>
            </Button>
            {canManage ? (
              <Button asChild size="sm">
                <Link href={courseEditPath(course.id)} aria-label={`Edit ${course.title}`}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Link>
              </Button>
            ) : null}
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
