import { ShieldQuestion } from "lucide-react";

/** Marks a tool whose every call waits for the user's Approve / Deny (issue 34). */
export function AsksFirstBadge() {
  return (
    <span
      title="Every call waits for your approval"
      className="inline-flex shrink-0 items-center gap-0.5 rounded border border-amber-500/40 bg-amber-500/15 px-1 text-[10px] font-semibold text-amber-800 dark:text-amber-300 [&_svg]:size-3!"
    >
      <ShieldQuestion aria-hidden="true" />
      Asks first
    </span>
  );
}
