import { z } from "zod";
import { ACTIVITY_ACTIONS } from "../activity-actions.js";
import { idText } from "./common.js";
import { endpoint } from "./endpoint.js";

/** The date filter. Days are the admin's own calendar days (see `tz`). */
export const ACTIVITY_DATE_RANGES = ["today", "yesterday", "last7days", "last30days"] as const;
export type ActivityDateRange = (typeof ACTIVITY_DATE_RANGES)[number];

export const ACTIVITY_DATE_LABELS: Record<ActivityDateRange, string> = {
  today: "Today",
  yesterday: "Yesterday",
  last7days: "Last 7 days",
  last30days: "Last 30 days",
};

export const ACTIVITY_PAGE_SIZE = 50;
export const ACTIVITY_SEARCH_MAX = 100;

/**
 * The CSV columns, in order: the product's six (docs/product.md, Admin back office), then who did it when it was not the account
 * itself (an admin, or "System").
 */
export const ACTIVITY_CSV_COLUMNS = ["User", "Email", "Action", "Date/Time", "IP Address", "User Agent", "Performed By"] as const;

/**
 * The filters of the page and of the export. `search` matches username, email, name, IP (and the name typed in a
 * failed login) case-insensitively; `action` is exact (empty = all); `date` counts calendar days in the time zone
 * `tz` (minutes east of UTC: the browser sends `-new Date().getTimezoneOffset()`; 0 = UTC).
 */
export const activityFiltersSchema = z.object({
  search: z.string().trim().max(ACTIVITY_SEARCH_MAX, `Search cannot exceed ${ACTIVITY_SEARCH_MAX} characters`).optional(),
  action: z.enum([...ACTIVITY_ACTIONS, ""], { error: "Unknown action" }).optional(),
  date: z.enum([...ACTIVITY_DATE_RANGES, ""], { error: "Date must be today, yesterday, last7days or last30days" }).optional(),
  tz: z.coerce
    .number({ error: "tz must be a UTC offset in minutes" })
    .int("tz must be a UTC offset in minutes")
    .min(-720, "tz must be a UTC offset in minutes")
    .max(840, "tz must be a UTC offset in minutes")
    .default(0),
});
export type ActivityFilters = z.output<typeof activityFiltersSchema>;
export type ActivityFiltersInput = z.input<typeof activityFiltersSchema>;

/** GET /api/admin/user-activity-logs: newest first; `cursor` is the id of the last row seen. */
export const activityListQuerySchema = activityFiltersSchema.extend({
  limit: z.coerce.number().int().min(1).max(200).default(ACTIVITY_PAGE_SIZE),
  cursor: idText.optional(),
});
export type ActivityListQuery = z.output<typeof activityListQuerySchema>;

export const activityLogSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  createdAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** For a failed login: the name that was typed. */
  attemptedUsername: z.string().nullable(),
  /** Null when the account is unknown (failed login) or was deleted since. */
  user: z
    .object({
      id: z.number().int(),
      username: z.string(),
      email: z.string().nullable(),
      name: z.string().nullable(),
    })
    .nullable(),
  /** The username of the row's account when that account was deleted since. */
  deletedUsername: z.string().nullable(),
  /**
   * Who did it, when not the account itself: the server (`system`: no IP, no user agent), or an admin (`username`;
   * `id` null once the admin's own account is deleted). Null: the account itself, or a visitor.
   */
  actor: z.object({ system: z.boolean(), id: z.number().int().nullable(), username: z.string().nullable() }).nullable(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;

/** User Activity (admins; the guard on /api/admin/* refuses everyone else). */
export const activityApi = {
  list: endpoint({
    method: "GET",
    path: "/api/admin/user-activity-logs",
    access: "admin",
    query: activityListQuerySchema,
    response: z.array(activityLogSchema),
    kind: "paged",
  }),
  /** The same filters, every matching row, streamed as CSV (text/csv, attachment user-activity-YYYY-MM-DD.csv). */
  exportCsv: endpoint({
    method: "GET",
    path: "/api/admin/user-activity-logs/export",
    access: "admin",
    query: activityFiltersSchema,
    response: z.unknown(),
    kind: "file",
  }),
};

export const DELETED_USER = "Deleted user";
export const NO_ACCOUNT = "No account";
export const SYSTEM_ACTOR = "System";

/** A name and what to say under it (or in brackets after it, in text). */
export type AccountLabel = { name: string; note: string | null };

/**
 * How an account reads in the log, in the list and the CSV alike: its username; once deleted, the username it had
 * with "Deleted user" (only "Deleted user" for rows older than the record of its name).
 */
export function accountLabel(username: string | null, deleted: boolean): AccountLabel {
  if (!username) return { name: DELETED_USER, note: null };
  return { name: username, note: deleted ? DELETED_USER : null };
}

/** Who a row is about: the account; for a failed login of an unknown account, the name that was typed. */
export function activityUser(log: Pick<ActivityLog, "user" | "attemptedUsername" | "deletedUsername">): AccountLabel {
  if (log.user) return accountLabel(log.user.username, false);
  if (log.deletedUsername) return accountLabel(log.deletedUsername, true);
  if (log.attemptedUsername) return { name: log.attemptedUsername, note: NO_ACCOUNT };
  return accountLabel(null, true);
}

/** Who did it, when not the account itself: "System" or the admin (null otherwise). */
export function activityActor(log: Pick<ActivityLog, "actor">): AccountLabel | null {
  if (!log.actor) return null;
  if (log.actor.system) return { name: SYSTEM_ACTOR, note: null };
  return accountLabel(log.actor.username, log.actor.id === null);
}

/** One line of text: `uma (deleted user)`, `ghost (no account)`. */
export const labelText = (label: AccountLabel | null) =>
  label ? (label.note ? `${label.name} (${label.note.toLowerCase()})` : label.name) : "";
