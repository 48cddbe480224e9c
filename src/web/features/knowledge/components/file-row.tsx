import { Download, FileText, FolderInput, ImageIcon, MoreHorizontal, Pencil, RotateCw, Trash2 } from "lucide-react";
import { type Collection, FILE_LIMIT_MESSAGES, filesApi, formatBytes, type KnowledgeFile } from "../../../../shared/contracts/knowledge.js";
import { FileState } from "../../../components/file-state.js";
import { Button } from "../../../components/ui/button.js";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../../components/ui/dropdown-menu.js";
import { ButtonSpinner } from "../../../components/ui/spinner.js";
import { endpointUrl } from "../../../lib/api-client.js";

const KIND_LABELS: Record<KnowledgeFile["kind"], string> = {
  pdf: "PDF",
  docx: "Word",
  markdown: "Markdown",
  text: "Text",
  html: "HTML",
  csv: "CSV",
  json: "JSON",
  code: "Code",
  image: "Image",
};

/** A file attached in the chat composer and not sent yet: when it goes (decision 068), in the reader's own time. */
function unsentNote(until: string): string {
  const when = new Date(until).toLocaleString(undefined, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  return `Attached to a message not sent yet: deleted ${when} unless the message is sent or you move it into a collection.`;
}

/**
 * One file: name, size, type, state (when it failed: the reason, and Retry, or Delete when it cannot be read), a note
 * when it waits for its message to be sent, and its menu.
 */
export function FileRow({
  file,
  collections,
  retrying,
  onRetry,
  onRename,
  onMove,
  onDelete,
}: {
  file: KnowledgeFile;
  collections: Collection[];
  retrying: boolean;
  onRetry: () => void;
  onRename: () => void;
  onMove: (collectionId: number | null) => void;
  onDelete: () => void;
}) {
  const Icon = file.kind === "image" ? ImageIcon : FileText;
  return (
    <li data-testid="knowledge-file" data-file-id={file.id} className="flex items-start gap-3 px-3 py-3 sm:px-4">
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="truncate text-sm font-medium" title={file.name}>
          {file.name}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <span>{formatBytes(file.size)}</span>
          <span aria-hidden="true">·</span>
          <span>{KIND_LABELS[file.kind]}</span>
          {file.pages !== null ? (
            <>
              <span aria-hidden="true">·</span>
              <span>
                {file.pages} {file.pages === 1 ? "page" : "pages"}
              </span>
            </>
          ) : null}
          <span aria-hidden="true">·</span>
          <FileState file={file} />
        </p>
        {file.unsentUntil !== null ? (
          <p data-testid="knowledge-file-unsent" className="text-xs text-muted-foreground">
            {unsentNote(file.unsentUntil)}
          </p>
        ) : null}
        {file.status === "failed" ? (
          <div className="flex flex-wrap items-center gap-2">
            <p role="alert" className="text-xs text-destructive dark:text-red-300">
              {file.error ?? "It could not be read."}
              {file.retryable ? null : ` ${FILE_LIMIT_MESSAGES.uploadReadableCopy}`}
            </p>
            {file.retryable ? (
              <Button size="sm" variant="outline" onClick={onRetry} disabled={retrying}>
                {retrying ? <ButtonSpinner /> : <RotateCw aria-hidden="true" />}
                Retry
              </Button>
            ) : (
              // The same bytes would fail again (decision 068): the way on is a readable copy, so Delete is offered here.
              <Button size="sm" variant="outline" onClick={onDelete} aria-label={`Delete ${file.name}`}>
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            )}
          </div>
        ) : null}
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" className="size-8 shrink-0" aria-label={`Actions for ${file.name}`}>
            <MoreHorizontal aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
          <DropdownMenuItem onSelect={onRename}>
            <Pencil aria-hidden="true" />
            Rename
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <a href={endpointUrl(filesApi.content, { params: { id: file.id } })} download={file.name}>
              <Download aria-hidden="true" />
              Download
            </a>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="flex items-center gap-2 text-xs text-muted-foreground">
            <FolderInput aria-hidden="true" className="size-3.5" />
            Move to
          </DropdownMenuLabel>
          {file.collectionId !== null ? <DropdownMenuItem onSelect={() => onMove(null)}>No collection</DropdownMenuItem> : null}
          {collections
            .filter((collection) => collection.id !== file.collectionId)
            .map((collection) => (
              <DropdownMenuItem key={collection.id} onSelect={() => onMove(collection.id)}>
                {collection.name}
              </DropdownMenuItem>
            ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={onDelete} className="text-destructive focus:text-destructive dark:text-red-300">
            <Trash2 aria-hidden="true" />
            Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}
