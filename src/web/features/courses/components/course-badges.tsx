import { Globe, Lock } from "lucide-react";
import type { Course } from "../../../../shared/contracts/courses.js";
import { Badge } from "../../../components/ui/badge.js";

/** Draft / Published and Public / Private. */
export function CourseBadges({ course }: { course: Pick<Course, "status" | "isPublic"> }) {
  return (
    <div className="flex flex-wrap gap-1.5">
      <Badge variant={course.status === "published" ? "new" : "secondary"}>{course.status === "published" ? "Published" : "Draft"}</Badge>
      <Badge variant="outline">
        {course.isPublic ? <Globe className="size-3" aria-hidden="true" /> : <Lock className="size-3" aria-hidden="true" />}
        {course.isPublic ? "Public" : "Private"}
      </Badge>
    </div>
  );
}
