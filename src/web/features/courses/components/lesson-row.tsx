import { ListChecks } from "lucide-react";
import { Link } from "wouter";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { ItemActions, type OrderedItem } from "../../../components/item-actions.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { quizEditPath } from "../../../lib/app-paths.js";
import { LESSON_TYPE_LABELS } from "../training-hints.js";

type OutlineLesson = CourseOutline["modules"][number]["lessons"][number];

/** One lesson in the editor: order, title, type, and Move / Edit / Delete; a quiz also opens its questions. */
export function LessonRow({ lesson, ...actions }: OrderedItem & { lesson: OutlineLesson }) {
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-background px-3 py-2">
      <span className="w-6 text-center text-xs font-semibold text-muted-foreground tabular-nums">{lesson.order}</span>
      <div className="grid min-w-0 flex-1 basis-40 gap-1">
        <span className="text-sm font-medium break-words">{lesson.title}</span>
        <div className="flex flex-wrap gap-1">
          <Badge variant="secondary">{LESSON_TYPE_LABELS[lesson.type]}</Badge>
          {lesson.kind === "quiz" && lesson.type !== "quiz" ? <Badge variant="outline">Quiz</Badge> : null}
          {lesson.aiGenerated ? <Badge variant="beta">AI</Badge> : null}
        </div>
      </div>
      <ItemActions
        name={lesson.title}
        label={`lesson ${lesson.title}`}
        {...actions}
        before={
          lesson.kind === "quiz" ? (
            <Button asChild variant="ghost" size="sm" className="h-8">
              <Link href={quizEditPath(lesson.courseId, lesson.id)} aria-label={`Questions of ${lesson.title}`}>
                <ListChecks aria-hidden="true" />
                Questions
              </Link>
            </Button>
          ) : null
        }
      />
    </div>
  );
}
