import { FileText } from "lucide-react";
import { lazy, Suspense, useMemo, useState } from "react";
import type { Citation } from "../../../../shared/contracts/chat.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { SourceRef } from "../../../components/sources/source-ref.js";

/** The side panel with a citation's passage: its code (Radix Dialog) loads when a source is first opened (decision 041). */
const CitationPanel = lazy(() => import("./citation-panel.js").then((m) => ({ default: m.CitationPanel })));

/** "Source 2: handbook.pdf, page 31". */
export function sourceLabel(citation: Citation): string {
  return `Source ${citation.n}: ${citation.fileName}${citation.page !== null ? `, page ${citation.page}` : ""}`;
}

/**
 * A settled reply's citations: `refs` draws each `[n]` that matches one as a link (an invented `[n]` stays text),
 * `sources` is the "Sources" row under the reply, `panel` the side panel they open.
 */
export function useCitations(chatId: number, messageId: number, citations: readonly Citation[]) {
  const [opened, setOpened] = useState<Citation | null>(null);
  const refs = useMemo<NumberedRefs | undefined>(() => {
    if (citations.length === 0) return undefined;
    const byNumber = new Map(citations.map((c) => [c.n, c]));
    return {
      numbers: new Set(byNumber.keys()),
      render: (n) => {
        const citation = byNumber.get(n);
        return citation ? <SourceRef key={`ref-${n}`} n={n} label={sourceLabel(citation)} onOpen={() => setOpened(citation)} /> : `[${n}]`;
      },
    };
  }, [citations]);
  const files = useMemo(() => {
    const seen = new Map<number, Citation>();
    for (const citation of citations) if (!seen.has(citation.fileId)) seen.set(citation.fileId, citation);
    return [...seen.values()];
  }, [citations]);
  const sources =
    files.length > 0 ? (
      <div data-sources className="flex flex-wrap items-center gap-1.5 text-xs">
        <span className="font-medium text-muted-foreground">Sources</span>
        {files.map((citation) => (
          <button
            key={citation.fileId}
            type="button"
            onClick={() => setOpened(citation)}
            className="inline-flex max-w-60 items-center gap-1 rounded-md border px-1.5 py-0.5 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
          >
            <FileText className="size-3 shrink-0 text-muted-foreground" aria-hidden="true" />
            <span className="truncate">{citation.fileName}</span>
          </button>
        ))}
      </div>
    ) : null;
  const panel = opened ? (
    <Suspense fallback={null}>
      <CitationPanel chatId={chatId} messageId={messageId} citation={opened} onClose={() => setOpened(null)} />
    </Suspense>
  ) : null;
  return { refs, sources, panel };
}
