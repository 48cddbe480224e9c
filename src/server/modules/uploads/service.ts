import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { uploads, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { sniffImageType } from "../../lib/image-type.js";
import type { Who } from "../../lib/who.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";

export const UPLOAD_URL_PREFIX = "/api/uploads/";

function assertImage(bytes: Uint8Array) {
  const mimeType = sniffImageType(bytes);
  if (!mimeType) {
    throw new AppError("BAD_REQUEST", "That file is not a PNG, JPEG or WebP image. Please choose another photo.");
  }
  return mimeType;
}

/** Stores the photo and points the user's avatar at it; the previous photo is deleted. */
export async function setAvatar(options: { db: Db; sessions: SessionStore; who: Who; bytes: Uint8Array }): Promise<Who> {
  const mimeType = assertImage(options.bytes);
  const id = randomBytes(16).toString("hex");
  return pointAvatarAt(options, { id, mimeType, bytes: options.bytes });
}

/** Back to the initials; the photo is deleted. */
export async function removeAvatar(options: { db: Db; sessions: SessionStore; who: Who }): Promise<Who> {
  return pointAvatarAt(options, null);
}

/** One transaction: the new upload (if any), the user's avatar URL, the old upload gone; then the sessions learn. */
async function pointAvatarAt(
  options: { db: Db; sessions: SessionStore; who: Who },
  upload: { id: string; mimeType: string; bytes: Uint8Array } | null,
): Promise<Who> {
  const userId = options.who.id;
  const updated = await options.db.transaction(async (tx) => {
    const [current] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.id, userId)).limit(1);
    if (upload) {
      await tx
        .insert(uploads)
        .values({ id: upload.id, userId, mimeType: upload.mimeType, byteSize: upload.bytes.byteLength, data: upload.bytes });
    }
    const [row] = await tx
      .update(users)
      .set({ avatarUrl: upload ? `${UPLOAD_URL_PREFIX}${upload.id}` : null, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning(sessionUserColumns);
    if (!row) throw new AppError("NOT_FOUND", "User not found");
    await deleteOwnUpload(tx as unknown as Db, userId, current?.avatarUrl ?? null);
    return row;
  });
  await userChanged(options.sessions, userId);
  return updated;
}

/** Stores an image (checked by content) and returns its URL; for course covers. */
export async function storeImage(db: Db, userId: number, bytes: Uint8Array): Promise<string> {
  const mimeType = assertImage(bytes);
  const id = randomBytes(16).toString("hex");
  await db.insert(uploads).values({ id, userId, mimeType, byteSize: bytes.byteLength, data: bytes });
  return `${UPLOAD_URL_PREFIX}${id}`;
}

/** Deletes an upload by its URL, only if it belongs to the user. */
export async function deleteOwnUpload(db: Db, userId: number, url: string | null) {
  if (!url?.startsWith(UPLOAD_URL_PREFIX)) return;
  await db.delete(uploads).where(and(eq(uploads.id, url.slice(UPLOAD_URL_PREFIX.length)), eq(uploads.userId, userId)));
}

export async function readUpload(options: { db: Db; who: Who; id: string }) {
  const [row] = await options.db
    .select({ mimeType: uploads.mimeType, data: uploads.data })
    .from(uploads)
    .where(eq(uploads.id, options.id))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "File not found");
  return row;
}
