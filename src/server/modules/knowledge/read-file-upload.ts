import type { FastifyRequest } from "fastify";
import { idText } from "../../../shared/contracts/common.js";
import { FILE_BYTES_CEILING, FILE_LIMIT_MESSAGES, FILE_PURPOSES, type FilePurpose } from "../../../shared/contracts/knowledge.js";
import { AppError } from "../../lib/app-error.js";
import { declaredBodyBytes, MULTIPART_FRAMING_BYTES, readCounted, readMultipart } from "../../lib/read-multipart.js";

/** The whole body of POST /api/files may hold the largest file the server takes and its framing (the collectionId and purpose fields too). */
export const FILE_UPLOAD_BODY_LIMIT = FILE_BYTES_CEILING + MULTIPART_FRAMING_BYTES;

export type FileUpload = { name: string; bytes: Uint8Array; sha256: string; collectionId: number | null; purpose: FilePurpose };

const isPurpose = (value: string): value is FilePurpose => (FILE_PURPOSES as readonly string[]).includes(value);

/**
 * The multipart body of POST /api/files: field `file`, an optional `collectionId` and an optional `purpose` (`message`:
 * attached to a message not sent yet, in no collection; decision 068). `maxBytes` is the caller's
 * largest file (their plan's, at most the server's ceiling): a body that declares more is refused before a byte is
 * read, and busboy counts the file's bytes as they stream, so a file past it stops there with a 413 (`tooLarge()`),
 * never held whole in memory. A file within it is held once, hashed as it comes in (`readCounted`). Whatever else is wrong with the body answers a 4xx that says so.
 */
export async function readFileUpload(request: FastifyRequest, maxBytes: number, tooLarge: () => AppError): Promise<FileUpload> {
  const words = {
    notMultipartBody: 'Send the file as multipart/form-data (field "file").',
    tooLarge,
    tooManyParts: 'The upload has too many parts. Send one file (field "file") and at most a collectionId and a purpose.',
    notMultipart: "Send the file as multipart/form-data.",
    malformed: "The upload is incomplete or malformed. Please choose the file again.",
  };
  const { file, collectionText, purposeText } = await readMultipart(request, maxBytes, words, async () => {
    let file: { name: string; bytes: Uint8Array; sha256: string } | undefined;
    let collectionText: string | undefined;
    let purposeText: string | undefined;
    // Every part is read, so a second file is refused (the files limit: 413) instead of silently left out.
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 } })) {
      if (part.type === "file") {
        if (part.fieldname !== "file") {
          part.file.resume();
          continue;
        }
        const read = await readCounted(part.file, declaredBodyBytes(request, maxBytes));
        // Past the cap busboy cuts the file short and says so.
        if (part.file.truncated) throw tooLarge();
        file = { name: part.filename, ...read };
      } else if (part.fieldname === "collectionId" && typeof part.value === "string") {
        collectionText = part.value;
      } else if (part.fieldname === "purpose" && typeof part.value === "string") {
        purposeText = part.value;
      }
    }
    return { file, collectionText, purposeText };
  });
  if (!file) throw new AppError("BAD_REQUEST", FILE_LIMIT_MESSAGES.noFile);
  let collectionId: number | null = null;
  if (collectionText !== undefined && collectionText.trim() !== "") {
    const parsed = idText.safeParse(collectionText.trim());
    if (!parsed.success) {
      throw new AppError("BAD_REQUEST", "Invalid request", { errors: { collectionId: "Collection must be a collection's id" } });
    }
    collectionId = parsed.data;
  }
  const purpose = purposeText === undefined || purposeText.trim() === "" ? "library" : purposeText.trim();
  if (!isPurpose(purpose)) {
    throw new AppError("BAD_REQUEST", "Invalid request", { errors: { purpose: 'Purpose must be "library" or "message"' } });
  }
  if (purpose === "message" && collectionId !== null) {
    throw new AppError("BAD_REQUEST", "Invalid request", { errors: { purpose: "A file for a message goes in no collection" } });
  }
  return { ...file, collectionId, purpose };
}
