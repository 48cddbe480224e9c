import { useState } from "react";
import type { MessageAttachment } from "../../../../shared/contracts/chat.js";
import { fileContentUrl } from "../files-api.js";
import { AttachmentChip } from "./attachment-chip.js";
import { ImageDialog } from "./lazy-chat-dialogs.js";

const isImage = (file: MessageAttachment) => file.kind === "image" || (file.type?.startsWith("image/") ?? false);

/** An attached image: a small thumbnail (loaded when in view) that opens full size (the dialog's code loads then). */
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
      {open ? <ImageDialog file={file} url={url} onClose={() => setOpen(false)} /> : null}
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
