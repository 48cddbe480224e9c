import { and, gt, inArray, sql } from "drizzle-orm";
import { type AdminUser, type PlanUsage, type TokenUsage, USAGE_WINDOW_DAYS } from "../../../shared/contracts/admin-users.js";
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

/**
 * Use against the plan now, as columns of a select on `users` (decision 016): tokens this month from
 * `usage_months`, messages sent today (UTC) from `usage_days`, and the plan's
 * allowances (none for an admin). Selected with the page's users, so a page is one query, never one per row.
 */
// Qualified by hand: Drizzle writes a one-table select's columns bare, and a bare "id" or "plan_type" inside
// these subqueries would be read as the subquery's own column.
const USER_ID = sql.raw('"users"."id"');
const USER_ROLE = sql.raw('"users"."role"');
const USER_PLAN = sql.raw('"users"."plan_type"');

export const planUsageColumns = {
  tokensThisMonth: sql<number>`coalesce((select um.tokens from usage_months um
      where um.user_id = ${USER_ID} and um.month = date_trunc('month', now() at time zone 'UTC')::date), 0)::float8`.mapWith(Number),
  messagesToday: sql<number>`coalesce((select ud.messages from usage_days ud
      where ud.user_id = ${USER_ID} and ud.day = (now() at time zone 'UTC')::date), 0)::int`.mapWith(Number),
  monthlyTokens: sql<number | null>`case when ${USER_ROLE} = 'admin' then null
      else (select pa.monthly_tokens from plan_allowances pa where pa.plan_type = ${USER_PLAN}) end`,
  messagesPerDay: sql<number | null>`case when ${USER_ROLE} = 'admin' then null
      else (select pa.messages_per_day from plan_allowances pa where pa.plan_type = ${USER_PLAN}) end`,
};

const NO_PLAN_USAGE: PlanUsage = { tokensThisMonth: 0, monthlyTokens: null, messagesToday: 0, messagesPerDay: null };

const planUsageOf = (row: Partial<PlanUsage>): PlanUsage => ({
  tokensThisMonth: row.tokensThisMonth ?? 0,
  monthlyTokens: row.monthlyTokens ?? null,
  messagesToday: row.messagesToday ?? 0,
  messagesPerDay: row.messagesPerDay ?? null,
});

export function toAdminUser(row: AdminUserRow & Partial<PlanUsage>, usage: TokenUsage = NO_USAGE): AdminUser {
  const { tokensThisMonth: _t, monthlyTokens: _m, messagesToday: _d, messagesPerDay: _p, ...user } = row;
  return { ...user, createdAt: row.createdAt.toISOString(), usage, planUsage: "tokensThisMonth" in row ? planUsageOf(row) : NO_PLAN_USAGE };
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

/** Rows plus their usage, in the order given; rows selected without `planUsageColumns` get them read here. */
export async function withUsage(db: Db, rows: (AdminUserRow & Partial<PlanUsage>)[]): Promise<AdminUser[]> {
  const ids = rows.map((row) => row.id);
  const missing = rows.filter((row) => !("tokensThisMonth" in row)).map((row) => row.id);
  const [usage, planRows] = await Promise.all([
    usageOf(db, ids),
    missing.length > 0
      ? db
          .select({ id: users.id, ...planUsageColumns })
          .from(users)
          .where(inArray(users.id, missing))
      : [],
  ]);
  const plan = new Map(planRows.map(({ id, ...row }) => [id, row]));
  return rows.map((row) => toAdminUser({ ...row, ...plan.get(row.id) }, usage.get(row.id)));
}
