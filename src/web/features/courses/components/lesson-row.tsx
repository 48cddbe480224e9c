import { Pencil, Trash2 } from "lucide-react";
import type { CourseOutline } from "../../../../shared/contracts/courses.js";
import { Badge } from "../../../components/ui/badge.js";
import { Button } from "../../../components/ui/button.js";
import { LESSON_TYPE_LABELS } from "../training-hints.js";
import { MoveButtons } from "./move-buttons.js";

type OutlineLesson = CourseOutline["modules"][number]["lessons"][number];

/** One lesson in the editor: order, title, type, and Move / Edit / Delete. */
export function LessonRow({
  lesson,
  first,
  last,
  busy,
  onMove,
  onEdit,
  onDelete,
}: {
  lesson: OutlineLesson;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (direction: "up" | "down") => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-lg border bg-background px-3 py-2">
      <span className="w-6 text-center text-xs font-semibold text-muted-foreground tabular-nums">{lesson.order}</span>
      <div className="grid min-w-0 flex-1 basis-40 gap-1">
        <span className="text-sm font-medium break-words">{lesson.title}</span>
        <div className="flex flex-wrap gap-1">
          <Badge variant="secondary">{LESSON_TYPE_LABELS[lesson.type]}</Badge>
          {lesson.aiGenerated ? <Badge variant="beta">AI</Badge> : null}
        </div>
      </div>
      <div className="ml-auto flex items-center">
        <MoveButtons name={lesson.title} first={first} last={last} disabled={busy} onMove={onMove} />
        <Button variant="ghost" size="icon" className="size-8" aria-label={`Edit lesson ${lesson.title}`} onClick={onEdit}>
          <Pencil aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-destructive hover:text-destructive"
          aria-label={`Delete lesson ${lesson.title}`}
          onClick={onDelete}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
