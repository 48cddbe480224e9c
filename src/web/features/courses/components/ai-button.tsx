import { Lock, Sparkles } from "lucide-react";
import { type ReactNode, useId } from "react";
import { hasEarlyAccess, PLAN_LABELS, PLAN_REFUSALS } from "../../../../shared/plan.js";
import { GetEarlyAccessButton } from "../../../components/get-early-access-button.js";
import { Button, type ButtonProps } from "../../../components/ui/button.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { useCurrentUser } from "../../../domain/session.js";

/** Whether the signed-in user's plan includes AI course generation (the server refuses it otherwise). */
export function useCanGenerate(): boolean {
  return hasEarlyAccess(useCurrentUser().user);
}

/**
 * An AI action the plan does not include: the button shown locked (disabled, a lock), the plan it needs, and
 * the way to get it (the Early Access checkout).
 */
export function LockedAiAction({ label, size = "sm", extra }: { label: string; size?: ButtonProps["size"]; extra?: ReactNode }) {
  const noteId = useId();
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-locked-ai="">
      <Button variant="outline" size={size} disabled aria-describedby={noteId} title={PLAN_REFUSALS.courseGeneration}>
        <Lock aria-hidden="true" />
        {label}
        {extra}
      </Button>
      <span id={noteId} className="text-xs text-muted-foreground">
        Needs the <span className="font-medium text-foreground">{PLAN_LABELS.earlyAccess}</span> plan
      </span>
      <GetEarlyAccessButton size="sm" variant="outline" />
    </span>
  );
}

/** "Generate with AI" beside a field; "Generating..." while the call runs; locked on a plan without it. */
export function AiButton({ pending, onClick, label = "Generate with AI" }: { pending: boolean; onClick: () => void; label?: string }) {
  const canGenerate = useCanGenerate();
  if (!canGenerate) return <LockedAiAction label={label} />;
  return (
    <Button variant="outline" size="sm" onClick={onClick} disabled={pending}>
      {pending ? <ButtonSpinner /> : <Sparkles aria-hidden="true" />}
      {pending ? "Generating..." : label}
    </Button>
  );
}
