import { useQuery } from "@tanstack/react-query";
import { Download, FileText } from "lucide-react";
import { useMemo, useState } from "react";
import { type Citation, chatsApi } from "../../../../shared/contracts/chat.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { Passage, SourcePanel, SourceRef } from "../../../components/sources/source-panel.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { fileContentUrl } from "../files-api.js";

/** "Source 2: handbook.pdf, page 31". */
export function sourceLabel(citation: Citation): string {
  return `Source ${citation.n}: ${citation.fileName}${citation.page !== null ? `, page ${citation.page}` : ""}`;
}

/** The passage a citation points at, with the text around it (GET .../citations/{n}), and the file to download. */
function CitationDetail({ chatId, messageId, citation }: { chatId: number; messageId: number; citation: Citation }) {
  const detail = useQuery(endpointQuery(chatsApi.citation, { params: { id: chatId, messageId, n: citation.n } }));
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto">
      <div className="flex flex-col gap-0.5 text-sm">
        <p className="flex items-center gap-1.5 font-medium break-all">
          <FileText className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          {citation.fileName}
        </p>
        {citation.page !== null ? <p className="text-muted-foreground">Page {citation.page}</p> : null}
        {detail.data?.headingPath ? <p className="text-muted-foreground">{detail.data.headingPath}</p> : null}
      </div>
      {detail.isPending ? (
        <Spinner label="Loading the passage" />
      ) : detail.isError ? (
        <p className="text-sm text-destructive">The passage could not be loaded: {errorMessage(detail.error)}</p>
      ) : (
        <Passage before={detail.data.before} excerpt={detail.data.excerpt} after={detail.data.after} />
      )}
      <Button asChild variant="outline" size="sm" className="self-start">
        <a href={fileContentUrl(citation.fileId)} download={citation.fileName}>
          <Download aria-hidden="true" />
          Download {citation.fileName}
        </a>
      </Button>
    </div>
  );
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
  const panel = (
    <SourcePanel title={opened ? `Source ${opened.n}` : null} onClose={() => setOpened(null)}>
      {opened ? <CitationDetail chatId={chatId} messageId={messageId} citation={opened} /> : null}
    </SourcePanel>
  );
  return { refs, sources, panel };
}
