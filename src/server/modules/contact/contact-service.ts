import { and, count, desc, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { z } from "zod";
import { CONTACT_SUBJECT_LABELS } from "../../../shared/contact-subjects.js";
import { CONTACT_PAGE_SIZE, CONTACT_SENT, type ContactMessage, type contactFormSchema } from "../../../shared/contracts/contact.js";
import { sliceWhole } from "../../../shared/cut-text.js";
import type { Db } from "../../db/client.js";
import { contactMessages, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import type { RequestMeta } from "../../lib/request-meta.js";
import { queueRendered } from "../email/queue.js";
import { escapeHtml } from "../email/render.js";
import { readPlatformSettings } from "../platform-settings/reader.js";

const MESSAGES_PER_HOUR = 5;

type Row = typeof contactMessages.$inferSelect;
const toMessage = (row: Row): ContactMessage => ({
  id: row.id,
  name: row.name,
  email: row.email,
  subject: row.subject,
  isUser: row.isUser,
  message: row.message,
  read: row.readAt !== null,
  createdAt: row.createdAt.toISOString(),
});

/**
 * POST /api/contact: 5 messages per address per hour (counted before anything else, atomically); a bot
 * that filled the honeypot gets the same answer and nothing is kept. The message is stored and emailed to
 * the support address (every active admin when none is set) through the outbox, in one transaction.
 */
export async function sendContactMessage(options: {
  db: Db;
  counters: CounterStore;
  input: z.output<typeof contactFormSchema>;
  meta: RequestMeta;
  /** Where the admin page is (PUBLIC_ORIGIN), for the email's link. */
  origin: string;
}): Promise<{ message: string }> {
  const { db, input, meta } = options;
  const state = await options.counters.hit(`contact-ip:${meta.ip}`, 60 * 60_000);
  if (state.count > MESSAGES_PER_HOUR) {
    const minutes = Math.max(1, Math.ceil(state.resetInMs / 60_000));
    throw new AppError("TOO_MANY_REQUESTS", `You have sent several messages already. Please try again in ${minutes} minutes.`, {
      retryAfterSeconds: Math.ceil(state.resetInMs / 1000),
    });
  }
  if (input.website?.trim()) return { message: CONTACT_SENT };

  const settings = await readPlatformSettings(db);
  const recipients = settings.supportEmail
    ? [settings.supportEmail]
    : (
        await db
          .select({ email: users.email })
          .from(users)
          .where(and(eq(users.role, "admin"), eq(users.status, "active"), isNotNull(users.email)))
      ).flatMap((admin) => (admin.email ? [admin.email] : []));
  const subject = CONTACT_SUBJECT_LABELS[input.subject];
  const text = [
    `${input.name} <${input.email}> wrote through the contact form.`,
    `Subject: ${subject}`,
    `Already a user: ${input.isUser ? "yes" : "no"}`,
    "",
    input.message,
    "",
    `All messages: ${options.origin}/admin/contact-messages`,
  ].join("\n");
  const html = `<div style="font-family: sans-serif; white-space: pre-wrap;">${escapeHtml(text)}</div>`;
  await db.transaction(async (tx) => {
    await tx.insert(contactMessages).values({
      name: input.name,
      email: input.email,
      subject: input.subject,
      isUser: input.isUser,
      message: input.message,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
    });
    for (const to of recipients) {
      await queueRendered({
        db: tx,
        to,
        templateSlug: null,
        subject: sliceWhole(`[${settings.platformName}] ${subject}: ${input.name}`, 200),
        text,
        html,
      });
    }
  });
  return { message: CONTACT_SENT };
}

/** The admin list: newest first, all or unread, 50 a page (cursor: the last id seen). */
export async function listContactMessages(options: { db: Db; filter: "all" | "unread"; cursor?: number }) {
  const rows = await options.db
    .select()
    .from(contactMessages)
    .where(
      and(
        options.filter === "unread" ? isNull(contactMessages.readAt) : undefined,
        options.cursor ? lt(contactMessages.id, options.cursor) : undefined,
      ),
    )
    .orderBy(desc(contactMessages.id))
    .limit(CONTACT_PAGE_SIZE + 1);
  const page = rows.slice(0, CONTACT_PAGE_SIZE);
  const last = page.at(-1);
  return { items: page.map(toMessage), nextCursor: rows.length > CONTACT_PAGE_SIZE && last ? String(last.id) : null };
}

export async function countUnreadContactMessages(db: Db): Promise<{ unread: number }> {
  const [row] = await db.select({ unread: count() }).from(contactMessages).where(isNull(contactMessages.readAt));
  return { unread: row?.unread ?? 0 };
}

const NOT_FOUND = "This message does not exist (any more).";

export async function markContactMessage(options: { db: Db; id: number; read: boolean }): Promise<ContactMessage> {
  const [row] = await options.db
    .update(contactMessages)
    .set({ readAt: options.read ? new Date() : null })
    .where(eq(contactMessages.id, options.id))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toMessage(row);
}

export async function deleteContactMessage(options: { db: Db; id: number }): Promise<void> {
  const [row] = await options.db.delete(contactMessages).where(eq(contactMessages.id, options.id)).returning({ id: contactMessages.id });
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
}
