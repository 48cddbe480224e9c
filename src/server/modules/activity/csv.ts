import { activityLabel } from "../../../shared/activity-actions.js";
import {
  ACTIVITY_CSV_COLUMNS,
  type ActivityFilters,
  type ActivityLog,
  activityActor,
  activityUser,
  labelText,
} from "../../../shared/contracts/activity.js";
import type { Db } from "../../db/client.js";
import { csvLine } from "../../lib/csv.js";
import type { Who } from "../../lib/who.js";
import { activityBatches } from "./activity-service.js";

const pad = (n: number) => String(n).padStart(2, "0");

/** ISO 8601 in the admin's time zone (`tz`, minutes east of UTC): `2025-03-01T14:05:09+01:00`. */
export function localTimestamp(iso: string, tzMinutes: number): string {
  const local = new Date(new Date(iso).getTime() + tzMinutes * 60_000).toISOString().slice(0, 19);
  const sign = tzMinutes < 0 ? "-" : "+";
  const abs = Math.abs(tzMinutes);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `user-activity-YYYY-MM-DD.csv`, today's date in the admin's time zone. */
export function exportFileName(tzMinutes: number, now = new Date()): string {
  return `user-activity-${new Date(now.getTime() + tzMinutes * 60_000).toISOString().slice(0, 10)}.csv`;
}

function row(log: ActivityLog, tzMinutes: number): string {
  return csvLine([
    labelText(activityUser(log)),
    log.user?.email ?? "",
    activityLabel(log.action),
    localTimestamp(log.createdAt, tzMinutes),
    log.ipAddress,
    log.userAgent,
    labelText(activityActor(log)),
  ]);
}

/**
 * The export, as chunks of text: a byte order mark (so spreadsheet programs read UTF-8), the header, then one
 * chunk per batch of rows. Pulled by the response stream, so a slow download slows the reads (backpressure).
 */
export async function* activityCsv(options: { db: Db; who: Who; filters: ActivityFilters }): AsyncGenerator<string> {
  yield `\uFEFF${csvLine([...ACTIVITY_CSV_COLUMNS])}`;
  for await (const batch of activityBatches(options)) {
    let chunk = "";
    for (const log of batch) chunk += row(log, options.filters.tz);
    yield chunk;
  }
}
