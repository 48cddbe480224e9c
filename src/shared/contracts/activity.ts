import { z } from "zod";
import { ACTIVITY_ACTIONS } from "../activity-actions.js";
import { idText } from "./common.js";
import { endpoint } from "./endpoint.js";

/** Spec 002 section 9: the date filter. Days are the admin's own calendar days (see `tz`). */
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

/** The CSV columns, in order (spec 002 section 7). */
export const ACTIVITY_CSV_COLUMNS = ["User", "Email", "Action", "Date/Time", "IP Address", "User Agent"] as const;

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

/** Who a row is about: the account's username; for a failed login of an unknown account, the name that was typed. */
export function activityUserLabel(log: Pick<ActivityLog, "user" | "attemptedUsername">): string {
  if (log.user) return log.user.username;
  if (log.attemptedUsername) return `${log.attemptedUsername} (no account)`;
  return "Deleted user";
}
