import { sql } from "drizzle-orm";
import { PLAN_TYPES } from "../../../shared/constants.js";
import { NO_STORAGE_LIMITS, type PlanAllowances, type PlanStorageLimits, UNLIMITED } from "../../../shared/contracts/usage.js";
import type { Db } from "../../db/client.js";
import { planAllowances } from "../../db/schema/index.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import type { Who } from "../../lib/who.js";
import { logActivity } from "../activity/activity-log.js";

/**
 * Every plan's allowances: a plan without a row is unlimited. Read from the database each time (two rows by
 * primary key), so every instance applies an admin's change at once; the checks read them inside the
 * transaction that starts a reply (ai/usage-limits.ts), never from a cache.
 */
export async function getPlanAllowances(options: { db: Db }): Promise<PlanAllowances> {
  const rows = await options.db.select().from(planAllowances);
  const result: PlanAllowances = { free: { ...UNLIMITED }, earlyAccess: { ...UNLIMITED } };
  for (const row of rows) result[row.planType] = { monthlyTokens: row.monthlyTokens, messagesPerDay: row.messagesPerDay };
  return result;
}

/** PUT /api/admin/plan-allowances: both plans in one statement, logged in the same transaction. */
export async function updatePlanAllowances(options: {
  db: Db;
  who: Who;
  meta: RequestMeta;
  input: PlanAllowances;
}): Promise<PlanAllowances> {
  const { db, who, meta, input } = options;
  await db.transaction(async (tx) => {
    await tx
      .insert(planAllowances)
      .values(PLAN_TYPES.map((planType) => ({ planType, ...input[planType], updatedAt: new Date() })))
      .onConflictDoUpdate({
        target: planAllowances.planType,
        set: {
          monthlyTokens: sql`excluded.monthly_tokens`,
          messagesPerDay: sql`excluded.messages_per_day`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
    await logActivity(tx, { userId: who.id, action: "plan_allowances_change", ...meta });
  });
  return getPlanAllowances({ db });
}

/** Every plan's library limits (issue 30): a plan without a row is unlimited. */
export async function getPlanStorageLimits(options: { db: Db }): Promise<PlanStorageLimits> {
  const rows = await options.db.select().from(planAllowances);
  const result: PlanStorageLimits = { free: { ...NO_STORAGE_LIMITS }, earlyAccess: { ...NO_STORAGE_LIMITS } };
  for (const row of rows) {
    result[row.planType] = { storageBytes: row.storageBytes, maxFiles: row.maxFiles, maxFileBytes: row.maxFileBytes };
  }
  return result;
}

/** PUT /api/admin/plan-storage-limits: both plans in one statement (the token allowances untouched), logged. */
export async function updatePlanStorageLimits(options: {
  db: Db;
  who: Who;
  meta: RequestMeta;
  input: PlanStorageLimits;
}): Promise<PlanStorageLimits> {
  const { db, who, meta, input } = options;
  await db.transaction(async (tx) => {
    await tx
      .insert(planAllowances)
      .values(PLAN_TYPES.map((planType) => ({ planType, ...input[planType], updatedAt: new Date() })))
      .onConflictDoUpdate({
        target: planAllowances.planType,
        set: {
          storageBytes: sql`excluded.storage_bytes`,
          maxFiles: sql`excluded.max_files`,
          maxFileBytes: sql`excluded.max_file_bytes`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
    await logActivity(tx, { userId: who.id, action: "plan_allowances_change", ...meta });
  });
  return getPlanStorageLimits({ db });
}
