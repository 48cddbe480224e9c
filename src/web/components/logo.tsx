import { Sparkles } from "lucide-react";
import { Link } from "wouter";
import { usePlatformName } from "../domain/platform-settings.js";
import { cn } from "../lib/cn.js";
import { paths } from "../lib/paths.js";

/** The product mark with the product name an admin set (Platform Settings); links home. */
export function Logo({ className }: { className?: string }) {
  const name = usePlatformName();
  return (
    <Link
      href={paths.home}
      className={cn(
        "inline-flex min-w-0 items-center gap-2 rounded-md font-semibold text-lg outline-none focus-visible:ring-2 focus-visible:ring-ring",
        className,
      )}
    >
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Sparkles className="size-4" aria-hidden="true" />
      </span>
      <span className="max-w-[11rem] truncate sm:max-w-xs" title={name}>
        {name}
      </span>
    </Link>
  );
}
