import { and, eq, gte, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { ActivityDateRange, ActivityFilters, ActivityListQuery, ActivityLog } from "../../../shared/contracts/activity.js";
import type { Db } from "../../db/client.js";
import { userActivityLogs as logs, USER_SEARCH_TEXT, users } from "../../db/schema/index.js";
import { containsPattern } from "../../lib/like-pattern.js";
import type { Who } from "../../lib/who.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The window of a date filter: calendar days in the admin's time zone (`tz`, minutes east of UTC). */
export function dateWindow(range: ActivityDateRange, tzMinutes: number, now = new Date()): { from: Date; to?: Date } {
  const offset = tzMinutes * 60 * 1000;
  const local = now.getTime() + offset;
  const startOfToday = new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - offset);
  const daysBack = (n: number) => new Date(startOfToday.getTime() - n * DAY_MS);
  switch (range) {
    case "today":
      return { from: startOfToday };
    case "yesterday":
      return { from: daysBack(1), to: startOfToday };
    case "last7days":
      return { from: daysBack(6) };
    case "last30days":
      return { from: daysBack(29) };
  }
}

const IP_CHARACTERS = /^[0-9a-f.:]+$/i;

/** Action, dates and the cursor: what every branch of a search shares. */
function baseConditions(filters: ActivityFilters, cursor: number | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(eq(logs.action, filters.action));
  if (filters.date) {
    const window = dateWindow(filters.date, filters.tz);
    conditions.push(gte(logs.createdAt, window.from));
    if (window.to) conditions.push(lt(logs.createdAt, window.to));
  }
  if (cursor !== undefined) conditions.push(lt(logs.id, cursor));
  return conditions;
}

/**
 * The ids of the newest `limit` matching rows. A search is a union of three index-friendly branches, each
 * newest first and cut at `limit`, instead of one OR the planner could only answer by reading the log:
 * - the rows of users whose username, email or name contain the term (trigram index on users, then user_id);
 * - the rows whose IP contains it (trigram index on the IP), when the term could be part of an IP;
 * - failed logins of unknown accounts whose typed name contains it.
 */
function matchingIds(filters: ActivityFilters, cursor: number | undefined, limit: number): SQL {
  const base = baseConditions(filters, cursor);
  const term = filters.search;
  if (!term) {
    return sql`select ${logs.id} from ${logs} where ${and(sql`true`, ...base)} order by ${logs.id} desc limit ${limit}`;
  }
  const pattern = containsPattern(term);
  const byUser = and(
    ...base,
    inArray(logs.userId, sql`(select ${users.id} from ${users} where ${USER_SEARCH_TEXT(users)} ilike ${pattern})`),
  );
  const branches = [sql`(select ${logs.id} from ${logs} where ${byUser} order by ${logs.id} desc limit ${limit})`];
  // An IP (v4 or v6) is made of hex digits, dots and colons: a term with any other character cannot be in one,
  // so that branch, which reads the whole log when the trigram index cannot narrow it, is not run at all.
  if (IP_CHARACTERS.test(term)) {
    const byIp = and(...base, sql`lower(coalesce(${logs.ipAddress}, '')) ilike ${pattern}`);
    branches.push(sql`(select ${logs.id} from ${logs} where ${byIp} order by ${logs.id} desc limit ${limit})`);
  }
  if (!filters.action || filters.action === "failed_login") {
    const byAttempt = and(
      ...base,
      eq(logs.action, "failed_login"),
      isNull(logs.userId),
      sql`lower(coalesce(${logs.attemptedUsername}, '')) ilike ${pattern}`,
    );
    branches.push(sql`(select ${logs.id} from ${logs} where ${byAttempt} order by ${logs.id} desc limit ${limit})`);
  }
  return sql`select id from (${sql.join(branches, sql` union `)}) as matched order by id desc limit ${limit}`;
}

type Row = {
  id: number;
  action: string;
  created_at: Date | string;
  ip_address: string | null;
  user_agent: string | null;
  attempted_username: string | null;
  deleted_username: string | null;
  actor_id: number | null;
  actor_username: string | null;
  by_system: boolean;
  user_id: number | null;
  username: string | null;
  email: string | null;
  name: string | null;
};

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function toLog(row: Row): ActivityLog {
  return {
    id: row.id,
    action: row.action,
    createdAt: iso(row.created_at),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    attemptedUsername: row.attempted_username,
    user:
      row.user_id !== null && row.username !== null ? { id: row.user_id, username: row.username, email: row.email, name: row.name } : null,
    deletedUsername: row.deleted_username,
    actor: row.by_system
      ? { system: true, id: null, username: null }
      : row.actor_username !== null
        ? { system: false, id: row.actor_id, username: row.actor_username }
        : null,
  };
}

/** One page of the log, newest first, with its user; `limit` rows at most. */
export async function readActivityPage(
  db: Db,
  filters: ActivityFilters,
  cursor: number | undefined,
  limit: number,
): Promise<ActivityLog[]> {
  const result = await db.execute(sql`
    select l.id, l.action, l.created_at, l.ip_address, l.user_agent, l.attempted_username, l.deleted_username,
           l.actor_id, l.actor_username, l.by_system,
           u.id as user_id, u.username, u.email, u.name
    from ${logs} l
    left join ${users} u on u.id = l.user_id
    where l.id in (${matchingIds(filters, cursor, limit)})
    order by l.id desc`);
  return (result.rows as Row[]).map(toLog);
}

/** GET /api/admin/user-activity-logs: a page and the cursor of the next one (null at the end). */
export async function listActivity(options: {
  db: Db;
  who: Who;
  query: ActivityListQuery;
}): Promise<{ items: ActivityLog[]; nextCursor: string | null }> {
  const { db, query } = options;
  const rows = await readActivityPage(db, query, query.cursor, query.limit + 1);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** Every matching row, newest first, `batchSize` at a time (keyset on the id): memory stays flat whatever the log holds. */
export async function* activityBatches(options: {
  db: Db;
  who: Who;
  filters: ActivityFilters;
  batchSize?: number;
}): AsyncGenerator<ActivityLog[]> {
  const batchSize = options.batchSize ?? 2000;
  let cursor: number | undefined;
  for (;;) {
    const rows = await readActivityPage(options.db, options.filters, cursor, batchSize);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    cursor = rows[rows.length - 1]?.id;
  }
}
