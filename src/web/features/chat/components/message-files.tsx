import { useState } from "react";
import type { MessageAttachment } from "../../../../shared/contracts/chat.js";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../../components/ui/dialog.js";
import { fileContentUrl } from "../files-api.js";
import { formatBytes } from "../format-bytes.js";
import { AttachmentChip } from "./attachment-chip.js";

const isImage = (file: MessageAttachment) => file.kind === "image" || (file.type?.startsWith("image/") ?? false);

/** An attached image: a small thumbnail (loaded when in view) that opens full size. */
function ImageThumbnail({ file, fileId }: { file: MessageAttachment; fileId: number }) {
  const [open, setOpen] = useState(false);
  const url = fileContentUrl(fileId);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`Open ${file.name} full size`}
        className="overflow-hidden rounded-xl border bg-muted outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <img src={url} alt={file.name} loading="lazy" decoding="async" className="block max-h-40 max-w-[min(16rem,60vw)] object-contain" />
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-[min(64rem,calc(100%-2rem))] gap-3 p-4">
          <DialogTitle className="pr-8 text-base break-all">{file.name}</DialogTitle>
          <DialogDescription className="sr-only">{formatBytes(file.size)}</DialogDescription>
          {open ? <img src={url} alt={file.name} className="mx-auto max-h-[calc(100dvh-8rem)] max-w-full object-contain" /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * The files of a user's message: images as thumbnails, documents as chips with name and size, and a file no longer
 * there (deleted from the library, or an import that could not bring it) as a greyed placeholder.
 */
export function MessageFiles({ attachments }: { attachments: readonly MessageAttachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <div className="flex flex-wrap justify-end gap-1.5">
      {attachments.map((file) =>
        !file.missing && file.fileId !== null && isImage(file) ? (
          <ImageThumbnail key={file.fileId} file={file} fileId={file.fileId} />
        ) : (
          <AttachmentChip key={file.fileId ?? `${file.name}:${file.size}`} name={file.name} size={file.size} missing={file.missing} />
        ),
      )}
    </div>
  );
}
