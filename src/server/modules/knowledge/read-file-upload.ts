import type { FastifyRequest } from "fastify";
import { idText } from "../../../shared/contracts/common.js";
import { FILE_BYTES_CEILING, FILE_LIMIT_MESSAGES } from "../../../shared/contracts/knowledge.js";
import { AppError } from "../../lib/app-error.js";
import { multipartFailure } from "../../lib/multipart-failure.js";

/** The framing around the file (part headers, the closing boundary, the collectionId field). */
const FRAMING_BYTES = 64 * 1024;

/** The whole body of POST /api/files may hold the largest file the server takes and its framing. */
export const FILE_UPLOAD_BODY_LIMIT = FILE_BYTES_CEILING + FRAMING_BYTES;

export type FileUpload = { name: string; bytes: Uint8Array; collectionId: number | null };

/**
 * The multipart body of POST /api/files: field `file` and an optional `collectionId`. `maxBytes` is the caller's
 * largest file (their plan's, at most the server's ceiling): a body that declares more is refused before a byte is
 * read, and busboy counts the file's bytes as they stream, so a file past it stops there with a 413 (`tooLarge()`),
 * never held whole in memory. Whatever else is wrong with the body answers a 4xx that says so.
 */
export async function readFileUpload(request: FastifyRequest, maxBytes: number, tooLarge: () => AppError): Promise<FileUpload> {
  if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", 'Send the file as multipart/form-data (field "file").');
  if (Number(request.headers["content-length"]) > maxBytes + FRAMING_BYTES) throw tooLarge();
  let file: { name: string; bytes: Uint8Array } | undefined;
  let collectionText: string | undefined;
  try {
    // Every part is read, so a second file is refused (the files limit: 413) instead of silently left out.
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 } })) {
      if (part.type === "file") {
        if (part.fieldname !== "file") {
          part.file.resume();
          continue;
        }
        file = { name: part.filename, bytes: new Uint8Array(await part.toBuffer()) };
      } else if (part.fieldname === "collectionId" && typeof part.value === "string") {
        collectionText = part.value;
      }
    }
  } catch (error) {
    throw multipartFailure(error, {
      tooLarge,
      tooManyParts: 'The upload has too many parts. Send one file (field "file") and at most a collectionId.',
      notMultipart: "Send the file as multipart/form-data.",
      malformed: "The upload is incomplete or malformed. Please choose the file again.",
    });
  }
  if (!file) throw new AppError("BAD_REQUEST", FILE_LIMIT_MESSAGES.noFile);
  let collectionId: number | null = null;
  if (collectionText !== undefined && collectionText.trim() !== "") {
    const parsed = idText.safeParse(collectionText.trim());
    if (!parsed.success) {
      throw new AppError("BAD_REQUEST", "Invalid request", { errors: { collectionId: "Collection must be a collection's id" } });
    }
    collectionId = parsed.data;
  }
  return { ...file, collectionId };
}
