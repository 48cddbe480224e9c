import { PLATFORM_KINDS } from "../../../../../../shared/constants.js";
import type { PlatformKind } from "../../../../../../shared/contracts/ai-platforms.js";

type Theme = { bar: string; chip: string };

/** A colour theme per seeded slug; any other platform is slate. */
const themes: Record<string, Theme> = {
  openai: { bar: "border-t-emerald-500", chip: "bg-emerald-500/15 text-emerald-700 dark:text-emerald-300" },
  "anthropic-claude": { bar: "border-t-amber-500", chip: "bg-amber-500/15 text-amber-700 dark:text-amber-300" },
  deepseek: { bar: "border-t-blue-500", chip: "bg-blue-500/15 text-blue-700 dark:text-blue-300" },
  mistral: { bar: "border-t-violet-500", chip: "bg-violet-500/15 text-violet-700 dark:text-violet-300" },
};
const fallback: Theme = { bar: "border-t-slate-400", chip: "bg-slate-500/15 text-slate-700 dark:text-slate-300" };

export function platformTheme(slug: string): Theme {
  return themes[slug] ?? fallback;
}

export const KIND_LABELS: Record<PlatformKind, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  deepseek: "Deepseek",
  mistral: "Mistral",
  "openai-compatible": "OpenAI-compatible",
};

export const KIND_OPTIONS = PLATFORM_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }));
