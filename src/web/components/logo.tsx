import { Sparkles } from "lucide-react";
import { Link } from "wouter";
import { cn } from "../lib/cn.js";
import { paths } from "../lib/paths.js";

/** The product mark; links home. */
export function Logo({ className }: { className?: string }) {
  return (
    <Link
      href={paths.home}
      className={cn(
        "inline-flex items-center gap-2 rounded-md font-semibold text-lg outline-none focus-visible:ring-2 focus-visible:ring-ring",
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Sparkles className="size-4" aria-hidden="true" />
      </span>
      <span>Lumora</span>
    </Link>
  );
}
