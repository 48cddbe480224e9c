/**
 * Reading a file on the thread that calls this: the reader thread runs it for PDFs, Word documents and large text
 * files (extract-worker.ts), the calling thread only for small text files (extract-text.ts).
 */
import { extractDocx } from "./extract-docx.js";
import { decodeText, htmlToText } from "./extract-markup.js";
import { extractPdf } from "./extract-pdf.js";
import type { Extracted } from "./extracted.js";
import type { DetectedFile } from "./file-kind.js";
import { ReadingError, tooMuchTextMessage } from "./reading-error.js";
import type { ReadingLimits } from "./reading-limits.js";

export async function extractHere(bytes: Uint8Array, detected: DetectedFile, limits: ReadingLimits): Promise<Extracted> {
  if (detected.kind === "pdf") return extractPdf(bytes, limits);
  if (detected.kind === "docx") return extractDocx(bytes, limits);
  return extractTextFile(bytes, detected, limits);
}

/** Text kinds: the text itself; HTML without its markup (headings as "#" lines); an image has none. */
export function extractTextFile(bytes: Uint8Array, detected: DetectedFile, limits: ReadingLimits): Extracted {
  if (detected.kind === "image") return { pages: [], pageCount: null };
  if (bytes.byteLength > limits.maxTextChars * 4) throw new ReadingError(tooMuchTextMessage(limits.maxTextChars), "PAYLOAD_TOO_LARGE");
  const raw = decodeText(bytes);
  const text = detected.kind === "html" ? htmlToText(raw) : raw.replaceAll("\0", "");
  if (text.length > limits.maxTextChars) throw new ReadingError(tooMuchTextMessage(limits.maxTextChars), "PAYLOAD_TOO_LARGE");
  const markdown = detected.kind === "markdown" || detected.kind === "html";
  return { pages: [{ page: null, text }], pageCount: null, structure: markdown ? "markdown" : "plain" };
}
