import { cn } from "../../../lib/cn.js";

/** A colour per named platform; any other is gray. */
const colours: Record<string, string> = {
  openai: "border-emerald-500/40 bg-emerald-500/15 text-emerald-800 dark:text-emerald-300",
  "anthropic-claude": "border-amber-500/40 bg-amber-500/15 text-amber-800 dark:text-amber-300",
  deepseek: "border-blue-500/40 bg-blue-500/15 text-blue-800 dark:text-blue-300",
  mistral: "border-violet-500/40 bg-violet-500/15 text-violet-800 dark:text-violet-300",
};
const gray = "border-slate-500/30 bg-slate-500/10 text-slate-800 dark:text-slate-300";

export function PlatformBadge({ slug, name, className }: { slug: string; name: string; className?: string }) {
  return (
    <span
      data-platform={slug}
      className={cn(
        "inline-flex max-w-[9rem] shrink-0 items-center truncate rounded border px-1.5 py-px text-[10px] font-semibold leading-4",
        colours[slug] ?? gray,
        className,
      )}
    >
      {name}
    </span>
  );
}
