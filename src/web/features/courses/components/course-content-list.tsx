import { BookOpen, CheckCircle2, Circle, Lock } from "lucide-react";
import { Link } from "wouter";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Badge } from "../../../components/ui/badge.js";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card.js";
import { lessonPath } from "../../../lib/paths.js";
import { LESSON_TYPE_LABELS } from "../training-hints.js";
import { sortedModules } from "../use-course-outline.js";

/** The day a locked lesson opens, in the reader's words. */
export const openingDay = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

/** Course Content: the modules in order and, in each, its lessons linking to the reader. */
export function CourseContentList({ outline }: { outline: CourseOutline }) {
  const modules = sortedModules(outline);
  if (modules.length === 0) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-sm text-muted-foreground">This course has no modules yet.</CardContent>
      </Card>
    );
  }
  return (
    <ol className="grid gap-4">
      {modules.map((module, index) => (
        <li key={module.id}>
          <Card>
            <CardHeader className="pb-3">
              <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Module {index + 1}</p>
              <CardTitle className="break-words">{module.title}</CardTitle>
              {module.description ? <CardDescription className="break-words">{module.description}</CardDescription> : null}
            </CardHeader>
            <CardContent>
              {module.lessons.length === 0 ? (
                <p className="text-sm text-muted-foreground">No lessons in this module yet.</p>
              ) : (
                <ol className="grid gap-1">
                  {module.lessons.map((lesson) => (
                    <li key={lesson.id}>
                      <Link
                        href={lessonPath(outline.course.id, lesson.id)}
                        className="flex items-center gap-3 rounded-md px-2 py-2 text-sm transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      >
                        {lesson.locked ? (
                          <Lock className="size-4 shrink-0 text-muted-foreground" aria-label="Locked" />
                        ) : lesson.completed ? (
                          <CheckCircle2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-label="Completed" />
                        ) : (
                          <Circle className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                        )}
                        <BookOpen className="hidden size-4 shrink-0 text-muted-foreground sm:block" aria-hidden="true" />
                        <span className="min-w-0 flex-1 break-words">
                          {lesson.title}
                          {lesson.locked && lesson.opensAt ? (
                            <span className="block text-xs text-muted-foreground">Opens on {openingDay(lesson.opensAt)}</span>
                          ) : null}
                        </span>
                        <Badge variant="secondary">{LESSON_TYPE_LABELS[lesson.type]}</Badge>
                      </Link>
                    </li>
                  ))}
                </ol>
              )}
            </CardContent>
          </Card>
        </li>
      ))}
    </ol>
  );
}
