import type { MessageAttachment } from "../../../../shared/contracts/chat.js";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../../components/ui/dialog.js";
import { formatBytes } from "../format-bytes.js";

/** An attached image at full size, over the chat. */
export function ImageDialog({ file, url, onClose }: { file: MessageAttachment; url: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-[min(64rem,calc(100%-2rem))] gap-3 p-4">
        <DialogTitle className="pr-8 text-base break-all">{file.name}</DialogTitle>
        <DialogDescription className="sr-only">{formatBytes(file.size)}</DialogDescription>
        <img src={url} alt={file.name} className="mx-auto max-h-[calc(100dvh-8rem)] max-w-full object-contain" />
      </DialogContent>
    </Dialog>
  );
}
