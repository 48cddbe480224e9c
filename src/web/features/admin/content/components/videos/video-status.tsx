import { cn } from "../../../../../lib/cn.js";

/** Active or Inactive, as a small pill (tokens only, so it reads in both themes). */
export function VideoStatus({ active }: { active: boolean }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap",
        active ? "border-primary/30 bg-primary/10 text-foreground" : "bg-muted text-muted-foreground",
      )}
    >
      <span aria-hidden="true" className={cn("size-1.5 rounded-full", active ? "bg-primary" : "bg-muted-foreground/60")} />
      {active ? "Active" : "Inactive"}
    </span>
  );
}
