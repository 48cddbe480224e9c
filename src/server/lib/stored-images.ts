import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.js";
import { uploads } from "../db/schema/index.js";
import { AppError } from "./app-error.js";
import { sniffImageType } from "./image-type.js";

/**
 * Writing and deleting the `uploads` rows (decision 003), for whatever an image belongs to (an avatar, a
 * course cover). Who may read one is decided where it is served (`modules/uploads`), by what it belongs to;
 * this floor lets the modules that own images store them without importing that module.
 */
export const UPLOAD_URL_PREFIX = "/api/uploads/";

/** A fresh upload id: 32 hex characters. */
export const newUploadId = () => randomBytes(16).toString("hex");

/** The image's type told by its first bytes, or a 400 that says what to do. */
export function assertImage(bytes: Uint8Array) {
  const mimeType = sniffImageType(bytes);
  if (!mimeType) {
    throw new AppError("BAD_REQUEST", "That file is not a PNG, JPEG or WebP image. Please choose another photo.");
  }
  return mimeType;
}

/** Stores an image (checked by content) and returns its URL; for course covers. */
export async function storeImage(db: DbOrTx, userId: number, bytes: Uint8Array): Promise<string> {
  const mimeType = assertImage(bytes);
  const id = newUploadId();
  await db.insert(uploads).values({ id, userId, mimeType, byteSize: bytes.byteLength, data: bytes });
  return `${UPLOAD_URL_PREFIX}${id}`;
}

/** Deletes an upload by its URL, only if it belongs to the user. */
export async function deleteOwnUpload(db: DbOrTx, userId: number, url: string | null) {
  if (!url?.startsWith(UPLOAD_URL_PREFIX)) return;
  await db.delete(uploads).where(and(eq(uploads.id, url.slice(UPLOAD_URL_PREFIX.length)), eq(uploads.userId, userId)));
}
