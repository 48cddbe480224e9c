import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";
import { type MultipartWords, multipartFailure } from "./multipart-failure.js";

/** The room a multipart body has beyond its file: part headers, the closing boundary, a few small fields. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;

/** An upload's words: its refusals while reading (`MultipartWords`), and the 415 of a body that is not multipart. */
export interface MultipartReadWords extends MultipartWords {
  notMultipartBody: string;
}

/**
 * The one frame of every upload's reader (an image, a library file, a chat import): a body that is not multipart is a
 * 415; one that declares more than its largest file (`maxFileBytes`) and the framing is refused before a byte of it
 * is read (`tooLarge`); and whatever goes wrong while `read` reads the parts (cut short, another boundary, too many
 * parts, a file past its limit) answers a 4xx that says so, never a 500 (`multipartFailure`). `read` gives the
 * parts their own limits.
 */
export async function readMultipart<T>(
  request: FastifyRequest,
  maxFileBytes: number,
  words: MultipartReadWords,
  read: () => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", words.notMultipartBody);
  if (Number(request.headers["content-length"]) > maxFileBytes + MULTIPART_FRAMING_BYTES) throw words.tooLarge();
  try {
    return await read();
  } catch (error) {
    throw multipartFailure(error, words);
  }
}

/** The body's declared length when it has one (at most the file's cap and the framing, `readMultipart` saw to it). */
export function declaredBodyBytes(request: FastifyRequest, maxFileBytes: number): number | null {
  const declared = Number(request.headers["content-length"]);
  return Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, maxFileBytes + MULTIPART_FRAMING_BYTES) : null;
}

/**
 * A file part's bytes, hashed and counted as they come (decision 074; the library file's and the chat import's
 * readers): with the body's length declared, copied once into one buffer of that size (the file is never larger than
 * its body); without it, the pieces kept and joined once. Either way the file is held once, not once per copy.
 */
export async function readCounted(pieces: AsyncIterable<Buffer>, declared: number | null): Promise<{ bytes: Uint8Array; sha256: string }> {
  const hash = createHash("sha256");
  const into = declared !== null ? Buffer.allocUnsafe(declared) : null;
  const kept: Buffer[] = [];
  let size = 0;
  for await (const piece of pieces) {
    hash.update(piece);
    if (into && size + piece.byteLength <= into.byteLength) piece.copy(into, size);
    else kept.push(piece);
    size += piece.byteLength;
  }
  if (into && kept.length > 0) throw new Error("the file is larger than its body");
  const whole = into ? into.subarray(0, size) : Buffer.concat(kept, size);
  return { bytes: new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength), sha256: hash.digest("hex") };
}
