import { CheckCircle2, Circle } from "lucide-react";
import { Button } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { useSetLessonComplete } from "../lesson-mutations.js";

/** "Mark as complete" / "Completed": the reader's own progress. */
export function CompleteToggle({ courseId, lessonId, completed }: { courseId: number; lessonId: number; completed: boolean }) {
  const toggle = useSetLessonComplete(courseId);
  return (
    <Button
      variant={completed ? "secondary" : "outline"}
      aria-pressed={completed}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate({ id: lessonId, completed: !completed })}
      className={completed ? "text-emerald-700 dark:text-emerald-300" : undefined}
    >
      {toggle.isPending ? <ButtonSpinner /> : completed ? <CheckCircle2 aria-hidden="true" /> : <Circle aria-hidden="true" />}
      {completed ? "Completed" : "Mark as complete"}
    </Button>
  );
}
