import type { FastifyRequest } from "fastify";
import { AVATAR_MAX_BYTES } from "../../shared/constants.js";
import { AppError } from "./app-error.js";

/**
 * The one reader of an uploaded image (avatar, course cover): one multipart file of at most 2 MB.
 * `what` names it in the messages ("photo", "image"). Its type is checked by content later, by the service.
 */
export async function readImageUpload(request: FastifyRequest, what: "photo" | "image"): Promise<Uint8Array> {
  if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Send the ${what} as multipart/form-data.`);
  const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  if (!file) throw new AppError("BAD_REQUEST", `Choose ${what === "image" ? "an image" : "a photo"} to upload.`);
  const bytes = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("PAYLOAD_TOO_LARGE", `The ${what} is larger than 2 MB. Please choose a smaller one.`);
    throw error;
  });
  return new Uint8Array(bytes);
}
