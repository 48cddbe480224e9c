import { eq } from "drizzle-orm";
import type { AdminUserPatch } from "../../../shared/contracts/admin-users.js";
import type { Db } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { sessionUserColumns } from "../sessions/public-user.js";
import type { SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";

/** An admin changes a user's plan (issue 5); later fields of the admin users page join here. */
export async function updateUserAsAdmin(options: {
  db: Db;
  sessions: SessionStore;
  who: Who;
  userId: number;
  input: AdminUserPatch;
}): Promise<Who> {
  const { db, userId, input } = options;
  const [row] = await db
    .update(users)
    .set({ ...(input.planType ? { planType: input.planType } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning(sessionUserColumns);
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  // The plan rides with the cached session: dropped on every instance so the change applies at once.
  await userChanged(options.sessions, userId);
  return row;
}
