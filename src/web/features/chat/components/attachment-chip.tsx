import { FileText, X } from "lucide-react";
import { cn } from "../../../lib/cn.js";
import { formatBytes } from "../format-bytes.js";

/** A file attached to a message: name and size, removable while composing. */
export function AttachmentChip({
  name,
  size,
  onRemove,
  className,
}: {
  name: string;
  size: number;
  onRemove?: () => void;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex max-w-full items-center gap-1.5 rounded-md border bg-background px-2 py-1 text-xs text-foreground",
        className,
      )}
    >
      <FileText className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="truncate font-medium">{name}</span>
      <span className="shrink-0 text-muted-foreground">{formatBytes(size)}</span>
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove ${name}`}
          className="-mr-1 rounded p-0.5 text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          <X className="size-3.5" aria-hidden="true" />
        </button>
      ) : null}
    </span>
  );
}
