import { GraduationCap } from "lucide-react";
import type { Course } from "../../../../shared/contracts/courses.js";
import { cn } from "../../../lib/cn.js";

/** The course's cover image, or a placeholder with its initial. */
export function CourseCover({ course, className }: { course: Pick<Course, "title" | "coverImage">; className?: string }) {
  if (course.coverImage) {
    return <img src={course.coverImage} alt="" className={cn("aspect-video w-full object-cover", className)} loading="lazy" />;
  }
  return (
    <div
      aria-hidden="true"
      className={cn(
        "flex aspect-video w-full items-center justify-center bg-gradient-to-br from-primary/25 via-primary/10 to-muted text-primary",
        className,
      )}
    >
      <GraduationCap className="size-12 opacity-70" />
    </div>
  );
}
