import { ATTACHMENTS } from "../../../shared/constants.js";
import type { Attachment } from "../../../shared/contracts/chat.js";

export type PendingAttachment = Attachment & { key: string; size: number };

let serial = 0;

/** A text file to send with the message, or why it cannot be. */
export async function readAttachment(file: File): Promise<{ attachment: PendingAttachment } | { reason: string }> {
  const dot = file.name.lastIndexOf(".");
  const extension = dot === -1 ? "" : file.name.slice(dot).toLowerCase();
  if (!(ATTACHMENTS.extensions as readonly string[]).includes(extension)) {
    return { reason: `${file.name} is not a supported text file.` };
  }
  if (file.size > ATTACHMENTS.maxBytesPerFile) {
    return { reason: `${file.name} is larger than ${ATTACHMENTS.maxBytesPerFile / 1024} KB.` };
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.includes(0)) return { reason: `${file.name} looks like a binary file, not text.` };
  serial += 1;
  return { attachment: { key: `${serial}`, name: file.name, size: file.size, content: new TextDecoder().decode(bytes) } };
}
