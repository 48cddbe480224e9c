import { AlertCircle, FileText, FileX, Loader2, X } from "lucide-react";
import { useState } from "react";
import { cn } from "../../../lib/cn.js";
import { formatBytes } from "../format-bytes.js";

/**
 * A file attached to a message: name and size, removable while composing. While composing it also says where the
 * file stands (uploading n%, reading, indexing, failed with the reason) and shows an image's thumbnail; in a sent
 * message a file that is no longer there is a greyed placeholder.
 */
export function AttachmentChip({
  name,
  size,
  status,
  state = "done",
  thumbnailUrl,
  missing = false,
  onRemove,
  className,
}: {
  name: string;
  size: number;
  /** Where the file stands, in words ("Uploading 40%", "Reading…", "Failed: …"). */
  status?: string;
  state?: "busy" | "failed" | "done";
  thumbnailUrl?: string | null;
  missing?: boolean;
  onRemove?: () => void;
  className?: string;
}) {
  const Icon = missing ? FileX : state === "failed" ? AlertCircle : FileText;
  // A thumbnail that cannot be drawn (bytes that are not an image) gives way to the icon.
  const [broken, setBroken] = useState<string | null>(null);
  const thumbnail = state !== "failed" && thumbnailUrl && broken !== thumbnailUrl ? thumbnailUrl : null;
  return (
    <span
      data-file-state={missing ? "missing" : state}
      className={cn(
        "inline-flex max-w-full items-center gap-1.5 rounded-md border bg-background px-2 py-1 text-xs text-foreground",
        state === "failed" && "border-destructive/50 bg-destructive/5",
        missing && "border-dashed bg-muted/50 text-muted-foreground",
        className,
      )}
    >
      {thumbnail ? (
        <img src={thumbnail} alt="" onError={() => setBroken(thumbnail)} className="size-7 shrink-0 rounded object-cover" />
      ) : state === "busy" ? (
        <Loader2 className="size-3.5 shrink-0 animate-spin text-muted-foreground" aria-hidden="true" />
      ) : (
        <Icon className={cn("size-3.5 shrink-0 text-muted-foreground", state === "failed" && "text-destructive")} aria-hidden="true" />
      )}
      <span className={cn("flex min-w-0 flex-col", status && "leading-tight")}>
        <span className="flex min-w-0 items-baseline gap-1.5">
          <span className={cn("truncate font-medium", missing && "line-through")}>{name}</span>
          <span className="shrink-0 text-muted-foreground">{missing ? "file not available" : formatBytes(size)}</span>
        </span>
        {status ? (
          <span
            role={state === "failed" ? "alert" : undefined}
            className={cn("text-[11px]", state === "failed" ? "break-words text-destructive" : "truncate text-muted-foreground")}
            title={status}
          >
            {status}
          </span>
        ) : null}
      </span>
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
