import { Lock, Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import { hasEarlyAccess, PLAN_REFUSALS } from "../../../../shared/plan.js";
import { PlanLockedNote } from "../../../components/plan-locked-note.js";
import { Button, type ButtonProps } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { useCurrentUser } from "../../../domain/session.js";

/** Whether the signed-in user's plan includes AI course generation (the server refuses it otherwise). */
export function useCanGenerate(): boolean {
  return hasEarlyAccess(useCurrentUser().user);
}

/** The Course Training panel's note, which the editor's locked AI actions point to. */
export const COURSE_AI_LOCKED_NOTE_ID = "course-ai-locked-note";

/**
 * An AI action the plan does not include: the button where the live one would be, disabled with a lock,
 * described by the place's `CourseAiLockedNote` (the plan it needs and Get Early Access), as the app's other
 * locked features are.
 */
export function LockedAiAction({
  label,
  size = "sm",
  extra,
  describedBy,
}: {
  label: string;
  size?: ButtonProps["size"];
  extra?: ReactNode;
  describedBy?: string;
}) {
  return (
    <Button variant="outline" size={size} disabled aria-describedby={describedBy} title={PLAN_REFUSALS.courseGeneration} data-locked-ai="">
      <Lock aria-hidden="true" />
      {label}
      {extra}
    </Button>
  );
}

/** Why the AI actions of a place are locked, and how to get them; nothing on a plan that has them. */
export function CourseAiLockedNote({ id, className }: { id?: string; className?: string }) {
  if (useCanGenerate()) return null;
  return <PlanLockedNote id={id} className={className} message={PLAN_REFUSALS.courseGeneration} />;
}

/**
 * "Generate with AI" beside a field; "Generating..." while the call runs; locked on a plan without it
 * (`lockedNoteId`: the field's `CourseAiLockedNote`).
 */
export function AiButton({
  pending,
  onClick,
  label = "Generate with AI",
  lockedNoteId,
}: {
  pending: boolean;
  onClick: () => void;
  label?: string;
  lockedNoteId?: string;
}) {
  const canGenerate = useCanGenerate();
  if (!canGenerate) return <LockedAiAction label={label} describedBy={lockedNoteId} />;
  return (
    <Button variant="outline" size="sm" onClick={onClick} disabled={pending}>
      {pending ? <ButtonSpinner /> : <Sparkles aria-hidden="true" />}
      {pending ? "Generating..." : label}
    </Button>
  );
}
