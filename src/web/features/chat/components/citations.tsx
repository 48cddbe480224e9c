import { useQuery } from "@tanstack/react-query";
import { Download, FileText, XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useMemo, useState } from "react";
import { type Citation, chatsApi } from "../../../../shared/contracts/chat.js";
import type { NumberedRefs } from "../../../components/markdown/numbered-refs.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { fileContentUrl } from "../files-api.js";

/** "Source 2: handbook.pdf, page 31". */
export function sourceLabel(citation: Citation): string {
  return `Source ${citation.n}: ${citation.fileName}${citation.page !== null ? `, page ${citation.page}` : ""}`;
}

/** A `[n]` that matches one of the reply's citations: a small raised button opening the passage. */
function CitationRef({ citation, onOpen }: { citation: Citation; onOpen: () => void }) {
  return (
    <button
      type="button"
      aria-label={sourceLabel(citation)}
      title={sourceLabel(citation)}
      onClick={onOpen}
      className="mx-0.5 inline-flex h-4 min-w-4 -translate-y-1 items-center justify-center rounded bg-primary/10 px-1 align-baseline text-[0.7rem] leading-none font-semibold text-primary outline-none hover:bg-primary/20 focus-visible:ring-2 focus-visible:ring-ring"
    >
      {citation.n}
    </button>
  );
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
        <blockquote
          aria-label="Passage"
          className="rounded-md border bg-muted/40 p-3 text-sm leading-relaxed whitespace-pre-wrap break-words text-muted-foreground"
        >
          {detail.data.before ? <span>{detail.data.before} </span> : null}
          <mark className="rounded-sm bg-primary/15 px-0.5 text-foreground dark:bg-primary/25">{detail.data.excerpt}</mark>
          {detail.data.after ? <span> {detail.data.after}</span> : null}
        </blockquote>
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

/** The side panel (a bottom sheet on phones) with one citation's passage. */
function CitationPanel({
  chatId,
  messageId,
  citation,
  onClose,
}: {
  chatId: number;
  messageId: number;
  citation: Citation | null;
  onClose: () => void;
}) {
  return (
    <DialogPrimitive.Root open={citation !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40 animate-fade-in" />
        <DialogPrimitive.Content
          className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85dvh] flex-col gap-3 rounded-t-2xl border-t bg-background p-5 shadow-lg outline-none sm:inset-y-0 sm:right-0 sm:left-auto sm:max-h-none sm:w-[26rem] sm:rounded-none sm:border-t-0 sm:border-l"
          aria-describedby={undefined}
        >
          {citation ? (
            <>
              <DialogPrimitive.Title className="pr-8 text-base font-semibold">Source {citation.n}</DialogPrimitive.Title>
              <CitationDetail chatId={chatId} messageId={messageId} citation={citation} />
            </>
          ) : null}
          <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm opacity-70 transition-opacity hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <XIcon className="size-5" aria-hidden="true" />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
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
        return citation ? <CitationRef key={`ref-${n}`} citation={citation} onOpen={() => setOpened(citation)} /> : `[${n}]`;
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
  const panel = <CitationPanel chatId={chatId} messageId={messageId} citation={opened} onClose={() => setOpened(null)} />;
  return { refs, sources, panel };
}
