import { CheckCircle2, Circle } from "lucide-react";
import { Link } from "wouter";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { cn } from "../../../lib/cn.js";
import { lessonPath } from "../../../lib/paths.js";

type OutlineModule = CourseOutline["modules"][number];

/** The lessons of the module being read; the current one is marked. */
export function ModuleLessonList({ courseId, module, currentId }: { courseId: number; module: OutlineModule; currentId: number }) {
  return (
    <Card>
      <CardHeader className="pb-3">
        <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Module {module.order}</p>
        <CardTitle className="text-base break-words">{module.title}</CardTitle>
      </CardHeader>
      <CardContent>
        <nav aria-label="Lessons in this module">
          <ol className="grid gap-1">
            {module.lessons.map((lesson) => {
              const current = lesson.id === currentId;
              return (
                <li key={lesson.id}>
                  <Link
                    href={lessonPath(courseId, lesson.id)}
                    aria-current={current ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2 rounded-md px-2 py-2 text-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                      current && "bg-accent font-medium",
                    )}
                  >
                    {lesson.completed ? (
                      <CheckCircle2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-label="Completed" />
                    ) : (
                      <Circle className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    )}
                    <span className="min-w-0 break-words">{lesson.title}</span>
                  </Link>
                </li>
              );
            })}
          </ol>
        </nav>
      </CardContent>
    </Card>
  );
}
