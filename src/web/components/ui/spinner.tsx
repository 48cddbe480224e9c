import { Loader2 } from "lucide-react";
import { cn } from "../../lib/cn.js";

/** A spinning icon; `label` is read by screen readers. */
export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 aria-hidden="true" className={cn("size-5 animate-spin text-muted-foreground", className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Fills the screen while a page or the session loads. */
export function PageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner className="size-8" label={label} />
    </div>
  );
}

/** A decorative spinner for inside a button whose text already says what is happening. */
export function ButtonSpinner() {
  return <Loader2 aria-hidden="true" className="animate-spin" />;
}
