import { and, gt, inArray, sql } from "drizzle-orm";
import { type AdminUser, type TokenUsage, USAGE_WINDOW_DAYS } from "../../../shared/contracts/admin-users.js";
import type { Db } from "../../db/client.js";
import { messages, users } from "../../db/schema/index.js";

/** The columns of a user an admin sees (never the password hash). */
export const adminUserColumns = {
  id: users.id,
  username: users.username,
  name: users.name,
  email: users.email,
  avatarUrl: users.avatarUrl,
  role: users.role,
  planType: users.planType,
  status: users.status,
  createdAt: users.createdAt,
};

export type AdminUserRow = {
  id: number;
  username: string;
  name: string | null;
  email: string | null;
  avatarUrl: string | null;
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
  status: "active" | "inactive";
  createdAt: Date;
};

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

export function toAdminUser(row: AdminUserRow, usage: TokenUsage = NO_USAGE): AdminUser {
  return { ...row, createdAt: row.createdAt.toISOString(), usage };
}

/**
 * Tokens used over the last 30 days by each of these users, in ONE grouped query (never one per row).
 * The token condition repeats the predicate of the partial index `messages_user_usage_idx` so it is used.
 */
export async function usageOf(db: Db, userIds: number[]): Promise<Map<number, TokenUsage>> {
  const usage = new Map<number, TokenUsage>();
  if (userIds.length === 0) return usage;
  const rows = await db
    .select({
      userId: messages.userId,
      inputTokens: sql<number>`coalesce(sum(${messages.inputTokens}), 0)::float8`.mapWith(Number),
      outputTokens: sql<number>`coalesce(sum(${messages.outputTokens}), 0)::float8`.mapWith(Number),
    })
    .from(messages)
    .where(
      and(
        inArray(messages.userId, userIds),
        gt(messages.createdAt, sql`now() - make_interval(days => ${USAGE_WINDOW_DAYS})`),
        sql`(${messages.inputTokens} is not null or ${messages.outputTokens} is not null)`,
      ),
    )
    .groupBy(messages.userId);
  for (const row of rows) usage.set(row.userId, { inputTokens: row.inputTokens, outputTokens: row.outputTokens });
  return usage;
}

/** Rows plus their usage, in the order given. */
export async function withUsage(db: Db, rows: AdminUserRow[]): Promise<AdminUser[]> {
  const usage = await usageOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toAdminUser(row, usage.get(row.id)));
}
