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
import type { Who } from "../../lib/who.js";
import { activityBatches } from "./activity-service.js";

/**
 * One CSV cell. A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula (CSV injection): such a cell gets a leading single quote. Then RFC 4180: a cell with a quote, a comma,
 * a semicolon (the separator of spreadsheets in many locales, which would otherwise start a new cell such as
 * `=cmd|...` inside it) or a line break is quoted, its quotes doubled.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(",")}\r\n`;

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
