import { and, eq } from "drizzle-orm";
import { ownerOrAdmin } from "../../../shared/owner-or-admin.js";
import type { Db } from "../../db/client.js";
import { courses, uploads, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { assertImage, deleteOwnUpload, newUploadId, UPLOAD_URL_PREFIX } from "../../lib/stored-images.js";
import type { Who } from "../../lib/who.js";
import { canView } from "../courses/access.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";

/** Stores the photo and points the user's avatar at it; the previous photo is deleted. */
export async function setAvatar(options: { db: Db; sessions: SessionStore; who: Who; bytes: Uint8Array }): Promise<Who> {
  const mimeType = assertImage(options.bytes);
  return pointAvatarAt(options, { id: newUploadId(), mimeType, bytes: options.bytes });
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
    await deleteOwnUpload(tx, userId, current?.avatarUrl ?? null);
    return row;
  });
  await userChanged(options.sessions, userId);
  return updated;
}

const FILE_NOT_FOUND = "File not found";

/**
 * An upload follows what it belongs to (decision 003). A course's cover: whoever may read the course
 * (`canView`, the courses rule: the owner, an admin, anyone signed in for a public published course). An
 * avatar: any signed-in user, as before. Anything else (belonging to nothing): its uploader and admins. Refused is 404, the same as an unknown id, so a private course's
 * cover does not tell that it exists. One query: the upload, the course it covers, the user it pictures.
 */
export async function readUpload(options: { db: Db; who: Who; id: string }) {
  const { db, who, id } = options;
  const url = `${UPLOAD_URL_PREFIX}${id}`;
  const [row] = await db
    .select({ mimeType: uploads.mimeType, data: uploads.data, userId: uploads.userId, course: courses, avatarOf: users.id })
    .from(uploads)
    // A cover is stored under its course owner's id (setCover), so the courses_user_idx index finds its course.
    .leftJoin(courses, and(eq(courses.userId, uploads.userId), eq(courses.coverImage, url)))
    .leftJoin(users, and(eq(users.id, uploads.userId), eq(users.avatarUrl, url)))
    .where(eq(uploads.id, id))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  const readable = row.course ? canView(row.course, who) : row.avatarOf !== null || ownerOrAdmin(who, row.userId);
  if (!readable) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
  return { mimeType: row.mimeType, data: row.data };
}
