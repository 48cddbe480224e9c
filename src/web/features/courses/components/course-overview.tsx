import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { useCurrentUser } from "../../../domain/session.js";
import { formatDate } from "../use-course-outline.js";

/** Overview: counts, who made it, when, visibility and status. */
export function CourseOverview({ outline }: { outline: CourseOutline }) {
  const { user } = useCurrentUser();
  const { course } = outline;
  const lessons = outline.modules.reduce((sum, module) => sum + module.lessons.length, 0);
  const facts: [string, string][] = [
    ["Modules", String(outline.modules.length)],
    ["Lessons", String(lessons)],
    ["Created by", course.userId === user?.id ? "You" : "Another user"],
    ["Created on", formatDate(course.createdAt)],
    ["Last updated", formatDate(course.updatedAt)],
    ["Visibility", course.isPublic ? "Public" : "Private"],
    ["Status", course.status === "published" ? "Published" : "Draft"],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>About this course</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{course.description || "No description provided"}</p>
        <dl className="grid gap-4 sm:grid-cols-2">
          {facts.map(([label, value]) => (
            <div key={label} className="grid gap-0.5 rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
