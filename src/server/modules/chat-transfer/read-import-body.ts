import type { FastifyInstance, FastifyRequest } from "fastify";
import { IMPORT_LIMITS } from "../../../shared/contracts/chat-transfer.js";
import { AppError } from "../../lib/app-error.js";
import { declaredBodyBytes, MULTIPART_FRAMING_BYTES, readCounted, readMultipart } from "../../lib/read-multipart.js";
import type { ImportUpload } from "./import-reader.js";

/** A JSON body may be as large as a file; a multipart body has some room for the framing around the file. */
export const IMPORT_BODY_LIMIT = IMPORT_LIMITS.maxBytes;
const MULTIPART_BODY_LIMIT = IMPORT_LIMITS.maxBytes + MULTIPART_FRAMING_BYTES;
const LIMITS = { fileSize: IMPORT_LIMITS.maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 };

export const tooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    "The file is larger than 50 MiB, so nothing was imported. Export fewer chats at a time and import each file.",
  );

/** The body declares its size up front: a file over the cap is refused before a byte of it is read. */
export function refuseLargeBody(request: FastifyRequest): void {
  const limit = request.isMultipart() ? MULTIPART_BODY_LIMIT : IMPORT_BODY_LIMIT;
  if (Number(request.headers["content-length"]) > limit) throw tooLarge();
}

/**
 * In the import's scope (its one route), a JSON body is kept as its bytes: it is parsed and checked with the file,
 * in the import's worker thread (`readImportBytes`), not here, where 50 MiB of JSON would hold up every request.
 */
export function keepJsonBodyAsBytes(scope: FastifyInstance): void {
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
}

/**
 * The file of POST /api/chats/import, unread: a multipart upload (field "file") or a JSON body, as bytes. Whatever
 * is wrong with the upload (cut short, too large, no file) answers a 4xx that says so, never a 500; what is wrong
 * with the bytes (not UTF-8, not JSON, not an export) is found where they are read (`readImportBytes`).
 */
export async function readImportBody(request: FastifyRequest): Promise<ImportUpload> {
  if (!request.isMultipart()) {
    if (!Buffer.isBuffer(request.body)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", 'Send the file as multipart/form-data (field "file") or as a JSON body.');
    }
    return { bytes: request.body, source: "body" };
  }
  const words = {
    notMultipartBody: "Send the file as multipart/form-data.",
    tooLarge,
    tooManyParts: "The upload has too many parts. Send one .json file and nothing else.",
    notMultipart: "Send the file as multipart/form-data.",
    malformed: "The upload is incomplete or malformed. Please choose the file again.",
  };
  const bytes = await readMultipart(request, IMPORT_LIMITS.maxBytes, words, async () => {
    let file: Buffer | undefined;
    // Every part is read, so a second file is refused (the files limit: 413) instead of silently left out.
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.type !== "file") continue;
      // Held once as it comes (not its pieces and then their join); past the limit busboy cuts it short and says so.
      const read = await readCounted(part.file, declaredBodyBytes(request, IMPORT_LIMITS.maxBytes));
      if (part.file.truncated) throw tooLarge();
      file = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
    }
    return file;
  });
  if (!bytes) throw new AppError("BAD_REQUEST", "Choose a .json file to import.");
  return { bytes, source: "file" };
}
