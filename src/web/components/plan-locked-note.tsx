import { Lock } from "lucide-react";
import { cn } from "../lib/cn.js";
import { GetEarlyAccessButton } from "./get-early-access-button.js";

/**
 * What the plan does not include, said once where it is refused: a lock, the plan's words, and Get Early Access.
 * The locked controls it explains stay where the live ones would be, disabled, described by it (`id`).
 */
export function PlanLockedNote({ id, message, className }: { id?: string; message: string; className?: string }) {
  return (
    <div
      role="note"
      id={id}
      className={cn("flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm", className)}
    >
      <Lock className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 justify-items-start gap-2">
        <p>{message}</p>
        <GetEarlyAccessButton />
      </div>
    </div>
  );
}
