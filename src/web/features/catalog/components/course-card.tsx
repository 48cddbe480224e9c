import { BookOpen } from "lucide-react";
import { Link } from "wouter";
import type { CatalogCourse } from "../../../../shared/contracts/catalog.js";
import { catalogCoursePath } from "../../../lib/paths.js";

export const lessonsLabel = (count: number) => `${count} ${count === 1 ? "lesson" : "lessons"}`;

/** A course's cover, or a placeholder of the same shape. */
export function CourseCover({ cover, className = "" }: { cover: string | null; className?: string }) {
  return cover ? (
    <img src={cover} alt="" className={`aspect-video w-full object-cover ${className}`} />
  ) : (
    <div className={`grid aspect-video w-full place-items-center bg-gradient-to-br from-primary/15 to-primary/5 ${className}`}>
      <BookOpen className="size-10 text-primary/60" aria-hidden="true" />
    </div>
  );
}

/** One course of the catalogue: cover, title (the link to its page), two lines of description, author and lessons. */
export function CourseCard({ course }: { course: CatalogCourse }) {
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-xl border bg-card shadow-xs transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <CourseCover cover={course.cover} />
      <div className="grid flex-1 content-start gap-2 p-4">
        <h2 className="text-lg font-semibold leading-snug">
          <Link href={catalogCoursePath(course.slug)} className="outline-none after:absolute after:inset-0">
            {course.title}
          </Link>
        </h2>
        <p className="line-clamp-2 text-sm text-muted-foreground">{course.description || "No description provided"}</p>
        <p className="mt-auto pt-2 text-sm text-muted-foreground">
          <span className="font-medium text-foreground">{course.ownerName}</span> · {lessonsLabel(course.lessonCount)}
        </p>
      </div>
    </li>
  );
}
