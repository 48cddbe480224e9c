import { eq } from "drizzle-orm";
import type { ActivityAction } from "../../../shared/activity-actions.js";
import type { Db } from "../../db/client.js";
import { userActivityLogs } from "../../db/schema/index.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";

/** A row written by the server itself (the checkout reconciler): no actor, no IP, no user agent. */
export const SYSTEM = { system: true } as const;

/** Where a row comes from: a request (its IP and user agent) or the server itself. */
export type ActivitySource = RequestMeta | typeof SYSTEM;

/**
 * One row of the activity log. `userId` is the account the row is about; `actor` the admin who acted on it
 * (absent when the account acted itself, or a visitor did).
 */
export async function logActivity(
  db: Db,
  entry: {
    userId: number | null;
    action: ActivityAction;
    attemptedUsername?: string;
    actor?: Pick<Who, "id" | "username">;
  } & ActivitySource,
): Promise<void> {
  const system = "system" in entry;
  await db.insert(userActivityLogs).values({
    userId: entry.userId,
    action: entry.action,
    ipAddress: system ? null : entry.ip,
    userAgent: system ? null : entry.userAgent,
    attemptedUsername: entry.attemptedUsername?.slice(0, 100) ?? null,
    actorId: entry.actor?.id ?? null,
    actorUsername: entry.actor?.username ?? null,
    bySystem: system,
  });
}

/**
 * Before an account is deleted: its rows keep its username, so they read "<username>" + "Deleted user" like the
 * row of the deletion itself (user_id becomes null through the foreign key).
 */
export async function keepDeletedUsername(db: Db, account: { id: number; username: string }): Promise<void> {
  await db.update(userActivityLogs).set({ deletedUsername: account.username }).where(eq(userActivityLogs.userId, account.id));
}
