import { FileText } from "lucide-react";
import { useMemo } from "react";
import type { NamedSource } from "../../../shared/contracts/citation.js";
import type { NumberedRefs } from "../markdown/numbered-refs.js";

/** "libtasn1.pdf, page 8". */
export const namedSourceLabel = (source: NamedSource) => `${source.name}${source.page !== null ? `, page ${source.page}` : ""}`;

/**
 * The sources a text numbers as [n], for a reader who may not open them (a shared chat, a catalogue preview; decision
 * 058): each known `[n]` drawn as the chat's raised number, naming its source to a screen reader and on hover, and a
 * "Sources" list of names and pages under the text. Nothing opens: the reader may not read the files.
 */
export function useNamedSources(sources: readonly NamedSource[]) {
  const refs = useMemo<NumberedRefs | undefined>(() => {
    if (sources.length === 0) return undefined;
    const byNumber = new Map(sources.map((s) => [s.n, s]));
    return {
      numbers: new Set(byNumber.keys()),
      render: (n) => {
        const source = byNumber.get(n);
        const label = source ? namedSourceLabel(source) : "";
        return (
          <sup
            key={`ref-${n}`}
            title={label}
            className="mx-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded bg-primary/10 px-1 text-[0.7rem] leading-none font-semibold text-primary"
          >
            {n}
            <span className="sr-only"> (source: {label})</span>
          </sup>
        );
      },
    };
  }, [sources]);
  const list =
    sources.length > 0 ? (
      <div data-sources className="grid gap-1 text-xs">
        <p className="font-medium text-muted-foreground">Sources</p>
        <ol className="grid gap-1" aria-label="Sources">
          {sources.map((source) => (
            <li key={source.n} className="flex min-w-0 items-center gap-1.5">
              <span className="inline-flex h-4 min-w-4 items-center justify-center rounded bg-primary/10 px-1 text-[0.7rem] font-semibold text-primary">
                {source.n}
              </span>
              <FileText className="size-3 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="min-w-0 break-words">{namedSourceLabel(source)}</span>
            </li>
          ))}
        </ol>
      </div>
    ) : null;
  return { refs, list };
}
