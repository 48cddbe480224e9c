import { useQuery } from "@tanstack/react-query";
import { Download, FileText } from "lucide-react";
import { type Citation, chatsApi } from "../../../../shared/contracts/chat.js";
import { Passage, SourcePanel } from "../../../components/sources/source-panel.js";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { errorMessage } from "../../../lib/api-client.js";
import { endpointQuery } from "../../../lib/endpoint-query.js";
import { fileContentUrl } from "../files-api.js";

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
        <Passage {...detail.data} />
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

/** One opened citation in the source panel. */
export function CitationPanel({
  chatId,
  messageId,
  citation,
  onClose,
}: {
  chatId: number;
  messageId: number;
  citation: Citation;
  onClose: () => void;
}) {
  return (
    <SourcePanel title={`Source ${citation.n}`} onClose={onClose}>
      <CitationDetail chatId={chatId} messageId={messageId} citation={citation} />
    </SourcePanel>
  );
}
