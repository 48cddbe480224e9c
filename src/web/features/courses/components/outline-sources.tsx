import { FileText, MessageSquare } from "lucide-react";
import { type PlannedSource, WITHOUT_SOURCE_MESSAGES } from "../../../../shared/contracts/courses.js";
import { sourceLabel, sourceUnion } from "../source-label.js";

/**
 * Under a proposed lesson: the passages it draws on (file and page, or chat message) with their excerpts. A lesson the
 * server proposed from material with none (nothing cleared the relevance floor, decision 067) says it will be written
 * without a source; a lesson added in the review (`sources` undefined) was never searched, so it says nothing.
 */
export function PlannedSources({
  sources,
  label,
  grounded = false,
}: {
  sources: readonly PlannedSource[] | undefined;
  label: string;
  grounded?: boolean;
}) {
  if (sources === undefined) return null;
  if (sources.length === 0) {
    return grounded ? (
      <p className="border-l-2 border-muted pl-3 text-xs text-muted-foreground">{WITHOUT_SOURCE_MESSAGES.planned}</p>
    ) : null;
  }
  return (
    <ul aria-label={label} className="grid gap-1 border-l-2 border-primary/30 pl-3">
      {sources.map((source, at) => {
        const Icon = source.kind === "message" ? MessageSquare : FileText;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a proposal's passages have no ids and never move
          <li key={at} className="grid gap-0.5 text-xs">
            <span className="flex min-w-0 items-center gap-1 font-medium text-muted-foreground">
              <Icon className="size-3 shrink-0" aria-hidden="true" />
              <span className="truncate">{sourceLabel(source)}</span>
            </span>
            <span className="line-clamp-2 break-words text-muted-foreground/90">{source.excerpt}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** At the top of a proposed module: the union of its lessons' sources, each file or chat named once. */
export function ModuleSources({ lessons }: { lessons: readonly { sources?: readonly PlannedSource[] }[] }) {
  const union = sourceUnion(lessons.map((lesson) => lesson.sources ?? []));
  if (union.length === 0) return null;
  return (
    <p className="text-xs text-muted-foreground">
      <span className="font-medium">Draws on:</span> {union.join("; ")}
    </p>
  );
}
