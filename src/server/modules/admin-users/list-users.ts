import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { AdminUser, AdminUserListQuery, AdminUserSummary } from "../../../shared/contracts/admin-users.js";
import type { Db } from "../../db/client.js";
import { USER_SEARCH_TEXT, users } from "../../db/schema/index.js";
import { containsPattern } from "../../lib/like-pattern.js";
import { adminUserColumns, planUsageColumns, withUsage } from "./admin-user-view.js";

/**
 * One page of users, newest first (`id` descending; the cursor is the last id). The search looks in
 * username, email and name through the trigram-indexed expression; the status filter uses (status, id).
 * The use against each plan (tokens this month, messages today) comes in the same query; the 30-day usage
 * from one grouped query for the page's ids.
 */
export async function listUsers(options: {
  db: Db;
  query: AdminUserListQuery;
}): Promise<{ items: AdminUser[]; nextCursor: string | null }> {
  const { db, query } = options;
  const where: SQL[] = [];
  if (query.search) where.push(sql`${USER_SEARCH_TEXT(users)} ilike ${containsPattern(query.search)}`);
  if (query.status) where.push(eq(users.status, query.status));
  if (query.cursor) where.push(lt(users.id, query.cursor));
  const rows = await db
    .select({ ...adminUserColumns, ...planUsageColumns })
    .from(users)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(users.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: await withUsage(db, page), nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** The counts above the table: read when the page opens and after a change, not on every search. */
export async function userSummary(options: { db: Db }): Promise<AdminUserSummary> {
  const [row] = await options.db
    .select({
      total: sql<number>`count(*)::int`,
      active: sql<number>`count(*) filter (where ${users.status} = 'active')::int`,
      inactive: sql<number>`count(*) filter (where ${users.status} = 'inactive')::int`,
      admins: sql<number>`count(*) filter (where ${users.role} = 'admin')::int`,
    })
    .from(users);
  return row ?? { total: 0, active: 0, inactive: 0, admins: 0 };
}
