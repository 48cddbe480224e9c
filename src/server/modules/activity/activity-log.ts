import type { ActivityAction } from "../../../shared/activity-actions.js";
import type { Db } from "../../db/client.js";
import { userActivityLogs } from "../../db/schema/index.js";

export async function logActivity(
  db: Db,
  entry: { userId: number | null; action: ActivityAction; ip: string; userAgent: string | null; attemptedUsername?: string },
): Promise<void> {
  await db.insert(userActivityLogs).values({
    userId: entry.userId,
    action: entry.action,
    ipAddress: entry.ip,
    userAgent: entry.userAgent,
    attemptedUsername: entry.attemptedUsername?.slice(0, 100) ?? null,
  });
}
