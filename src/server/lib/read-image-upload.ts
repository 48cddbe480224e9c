import type { FastifyRequest } from "fastify";
import { AVATAR_MAX_BYTES } from "../../shared/constants.js";
import { AppError } from "./app-error.js";
import { readMultipart } from "./read-multipart.js";

const LIMITS = { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 };

/**
 * The one reader of an uploaded image (avatar, course cover): one multipart file of at most 2 MB.
 * `what` names it in the messages ("photo", "image"). Its type is checked by content later, by the service.
 * Whatever is wrong with the body (cut short, another boundary, no file, too many parts, too large) answers a
 * 4xx that says so, never a 500: see `readMultipart()` (lib/read-multipart.ts).
 */
export async function readImageUpload(request: FastifyRequest, what: "photo" | "image"): Promise<Uint8Array> {
  return readMultipart(
    request,
    AVATAR_MAX_BYTES,
    {
      notMultipartBody: `Send the ${what} as multipart/form-data.`,
      tooLarge: () => tooLarge(what),
      tooManyParts: `The upload has too many parts. Send one ${what} and nothing else.`,
      notMultipart: `Send the ${what} as multipart/form-data.`,
      malformed: `The upload is incomplete or malformed. Please choose the ${what} again.`,
    },
    async () => {
      const file = await request.file({ limits: LIMITS });
      if (!file) throw new AppError("BAD_REQUEST", `Choose ${what === "image" ? "an image" : "a photo"} to upload.`);
      return new Uint8Array(await file.toBuffer());
    },
  );
}

const tooLarge = (what: string) => new AppError("PAYLOAD_TOO_LARGE", `The ${what} is larger than 2 MB. Please choose a smaller one.`);
