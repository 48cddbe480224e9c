import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import {
  OUTBOX_EMAIL_NOT_FOUND,
  OUTBOX_NOT_RESENDABLE,
  type OutboxEmail,
  type OutboxEmailDetail,
  type OutboxListQuery,
  RESENDABLE_STATUSES,
} from "../../../shared/contracts/email-outbox.js";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { wakeOutboxWorkers } from "./outbox-worker.js";

type Row = typeof emailOutbox.$inferSelect;

const listColumns = {
  id: emailOutbox.id,
  toAddress: emailOutbox.toAddress,
  templateSlug: emailOutbox.templateSlug,
  subject: emailOutbox.subject,
  status: emailOutbox.status,
  attempts: emailOutbox.attempts,
  lastError: emailOutbox.lastError,
  createdAt: emailOutbox.createdAt,
  sentAt: emailOutbox.sentAt,
  nextAttemptAt: emailOutbox.nextAttemptAt,
};

function toOutboxEmail(row: Omit<Row, "textBody" | "htmlBody" | "claimedBy" | "claimedAt">): OutboxEmail {
  return {
    id: row.id,
    to: row.toAddress,
    templateSlug: row.templateSlug,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  };
}

/** GET /api/admin/email-outbox: newest first, `limit` rows, the next cursor (the last id) or null. */
export async function listOutbox(options: { db: Db; who: Who; query: OutboxListQuery }) {
  const { db, query } = options;
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(emailOutbox.status, query.status));
  if (query.cursor !== undefined) conditions.push(lt(emailOutbox.id, query.cursor));
  const rows = await db
    .select(listColumns)
    .from(emailOutbox)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(emailOutbox.id))
    .limit(query.limit + 1);
  const items = rows.slice(0, query.limit).map(toOutboxEmail);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** GET /api/admin/email-outbox/:id: one message with its bodies (read by the preview page). */
export async function getOutboxEmail(options: { db: Db; who: Who; id: number }): Promise<OutboxEmailDetail> {
  const [row] = await options.db.select().from(emailOutbox).where(eq(emailOutbox.id, options.id)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", OUTBOX_EMAIL_NOT_FOUND);
  return { ...toOutboxEmail(row), text: row.textBody, html: row.htmlBody };
}

/**
 * POST /api/admin/email-outbox/:id/resend: a sent, failed or test message goes back to the queue now, with
 * fresh attempts (and a fresh 24 hours of retries). One statement, so a message already queued or being
 * sent is never queued twice.
 */
export async function resendOutboxEmail(options: { db: Db; who: Who; id: number }): Promise<OutboxEmail> {
  const { db, id } = options;
  const [row] = await db
    .update(emailOutbox)
    .set({ status: "queued", attempts: 0, nextAttemptAt: new Date(), lastError: null, sentAt: null, claimedBy: null, claimedAt: null })
    .where(and(eq(emailOutbox.id, id), inArray(emailOutbox.status, [...RESENDABLE_STATUSES])))
    .returning(listColumns);
  if (!row) {
    const [exists] = await db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
    throw exists ? new AppError("CONFLICT", OUTBOX_NOT_RESENDABLE) : new AppError("NOT_FOUND", OUTBOX_EMAIL_NOT_FOUND);
  }
  wakeOutboxWorkers();
  return toOutboxEmail(row);
}
