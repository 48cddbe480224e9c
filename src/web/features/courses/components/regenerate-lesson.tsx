import { RefreshCw } from "lucide-react";
import { useState } from "react";
import type { Lesson } from "../../../../shared/contracts/courses.js";
import { Button } from "../../../components/ui/button.js";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { useRegenerateLesson } from "../ai-mutations.js";
import { useTrainingHints } from "../training-hints.js";

/**
 * Regenerate on a grounded lesson (issue 31): written again from passages retrieved again (so an updated file is
 * used); the text it had is kept as a version. Off while the form has unsaved edits, which it would replace.
 */
export function RegenerateLesson({
  courseId,
  lesson,
  dirty,
  onRegenerated,
}: {
  courseId: number;
  lesson: Lesson;
  dirty: boolean;
  onRegenerated: (lesson: Lesson) => void;
}) {
  const [asking, setAsking] = useState(false);
  const regenerate = useRegenerateLesson(courseId);
  const hints = useTrainingHints();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="outline" size="sm" disabled={dirty || regenerate.isPending} onClick={() => setAsking(true)}>
        {regenerate.isPending ? <ButtonSpinner /> : <RefreshCw aria-hidden="true" />}
        {regenerate.isPending ? "Regenerating..." : "Regenerate"}
      </Button>
      <span className="text-xs text-muted-foreground">
        {regenerate.isPending
          ? "Reading your material again and rewriting the lesson…"
          : dirty
            ? "Save or cancel your changes to regenerate."
            : "Rewrites it from your material; the current text is kept as a version."}
      </span>
      {asking ? (
        <ConfirmDialog
          title="Regenerate this lesson?"
          message="It is written again from your material, read again now. The current text is kept in its versions, so you can restore it."
          confirmLabel="Regenerate"
          pendingLabel="Regenerating..."
          destructive={false}
          pending={regenerate.isPending}
          onClose={() => setAsking(false)}
          onConfirm={() =>
            regenerate.mutate(
              { lessonId: lesson.id, hints },
              {
                onSuccess: (updated) => {
                  setAsking(false);
                  onRegenerated(updated);
                },
              },
            )
          }
        />
      ) : null}
    </div>
  );
}
