/**
 * A Word document's text, headings kept as "#" lines. A .docx is a zip, so before anything inflates it its central
 * directory is checked (entry count, declared unzipped size: a zip bomb is refused on a few bytes of reading), then
 * every entry is inflated by yauzl, which stops an entry the moment it grows past the size it declared, so the whole
 * file never unpacks to more than the limit. Mammoth then reads a copy of exactly what was checked (stored without
 * compression), so it never meets an entry we did not measure. Images are left out: only text is wanted.
 */

import { zipSync } from "fflate";
import mammoth from "mammoth";
import yauzl from "yauzl";
import { htmlToText } from "./extract-markup.js";
import type { Extracted } from "./extracted.js";
import {
  DOCX_TOO_LARGE_MESSAGE,
  DOCX_TOO_MANY_PARTS_MESSAGE,
  ReadingError,
  tooMuchTextMessage,
  UNREADABLE_MESSAGE,
} from "./reading-error.js";
import type { ReadingLimits } from "./reading-limits.js";

/** Parts of a .docx that are never text (pictures, embedded files, fonts): measured, then kept empty. */
const BINARY_PART = /^word\/(media|embeddings|fonts)\//i;

function openZip(bytes: Uint8Array): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true },
      (error, zip) => (error || !zip ? reject(error ?? new Error("no zip")) : resolve(zip)),
    );
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, keep: boolean): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) {
        reject(error ?? new Error("no stream"));
        return;
      }
      const parts: Buffer[] = [];
      stream.on("data", (part: Buffer) => {
        if (keep) parts.push(part);
      });
      // yauzl fails the stream as soon as it yields more bytes than the entry declared.
      stream.on("error", reject);
      stream.on("end", () => resolve(keep ? new Uint8Array(Buffer.concat(parts)) : new Uint8Array(0)));
    });
  });
}

/** Every entry of the zip, inflated within the limits; throws ReadingError past them. */
export async function unzipWithinLimits(bytes: Uint8Array, limits: ReadingLimits): Promise<Record<string, Uint8Array>> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(bytes);
  } catch {
    throw new ReadingError(UNREADABLE_MESSAGE);
  }
  try {
    if (zip.entryCount > limits.maxZipEntries) throw new ReadingError(DOCX_TOO_MANY_PARTS_MESSAGE, "PAYLOAD_TOO_LARGE");
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.push(entry);
        declared += entry.uncompressedSize;
        if (declared > limits.maxUnzippedBytes) reject(new ReadingError(DOCX_TOO_LARGE_MESSAGE, "PAYLOAD_TOO_LARGE"));
        else zip.readEntry();
      });
      zip.on("end", resolve);
      zip.on("error", reject);
      zip.readEntry();
    });
    const files: Record<string, Uint8Array> = {};
    for (const entry of entries) {
      if (entry.fileName.endsWith("/")) continue;
      files[entry.fileName] = await readEntry(zip, entry, !BINARY_PART.test(entry.fileName));
    }
    return files;
  } catch (error) {
    if (error instanceof ReadingError) throw error;
    // An entry that inflates past the size it declared: the shape of a zip bomb.
    if (error instanceof Error && error.message.includes("too many bytes")) {
      throw new ReadingError(DOCX_TOO_LARGE_MESSAGE, "PAYLOAD_TOO_LARGE");
    }
    throw new ReadingError(UNREADABLE_MESSAGE);
  } finally {
    zip.close();
  }
}

export async function extractDocx(bytes: Uint8Array, limits: ReadingLimits): Promise<Extracted> {
  const files = await unzipWithinLimits(bytes, limits);
  let html: string;
  try {
    const checked = zipSync(files, { level: 0 });
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength) },
      {
        // No picture is read or inlined; a linked file outside the document is never fetched.
        convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch {
    throw new ReadingError(UNREADABLE_MESSAGE);
  }
  if (html.length > limits.maxTextChars * 2) throw new ReadingError(tooMuchTextMessage(limits.maxTextChars), "PAYLOAD_TOO_LARGE");
  const text = htmlToText(html);
  if (text.length > limits.maxTextChars) throw new ReadingError(tooMuchTextMessage(limits.maxTextChars), "PAYLOAD_TOO_LARGE");
  return { pages: [{ page: null, text }], pageCount: null, structure: "markdown" };
}
