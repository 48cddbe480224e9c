import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { readPlatformSettings } from "../platform-settings/reader.js";
import { PRODUCT_EMAILS } from "./product-email-slugs.js";
import { connectionFromSettings, createTransport, describeSmtpError, fromAddress, type SmtpConnection } from "./transport.js";

export interface OutboxTiming {
  /** How often the queue is looked at (queueEmail() on this instance also wakes it at once). */
  tickMs: number;
  /** The first retry waits this long, then the wait doubles... */
  baseDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** Retries stop (status failed) once their waits add up to this. */
  giveUpAfterMs: number;
  /** A `sending` claim older than this belongs to an instance that died mid-send: it is taken over. */
  staleClaimMs: number;
  /** Rows claimed at once. */
  batchSize: number;
}

export const DEFAULT_OUTBOX_TIMING: OutboxTiming = {
  tickMs: 1000,
  baseDelayMs: 5000,
  maxDelayMs: 5 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
  staleClaimMs: 5 * 60_000,
  batchSize: 10,
};

/** The wait before retry number `attempts` (1 = first retry): base, doubling, capped. */
export function retryDelayMs(attempts: number, timing: Pick<OutboxTiming, "baseDelayMs" | "maxDelayMs">): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(timing.baseDelayMs * 2 ** exponent, timing.maxDelayMs);
}

/** The waits of the first `attempts` retries added up: once it reaches giveUpAfterMs, the email is failed. */
export function totalRetryWaitMs(attempts: number, timing: Pick<OutboxTiming, "baseDelayMs" | "maxDelayMs">): number {
  let total = 0;
  for (let i = 1; i <= attempts; i++) total += retryDelayMs(i, timing);
  return total;
}

// queueEmail() on this instance wakes the workers of this process (a row queued elsewhere waits for a tick).
const wakers = new Set<() => void>();
export function wakeOutboxWorkers(): void {
  for (const wake of wakers) wake();
}

/**
 * Sends the outbox, in the app process. Rows are claimed atomically (`FOR UPDATE SKIP LOCKED` and the
 * update to `sending` in one statement), so two instances never take the same row; a row is marked sent
 * right after the SMTP server accepted it. A failure puts the row back in the queue with a growing delay;
 * everything lives in the database, so a restart (or another instance) resumes the queue.
 */
export class OutboxWorker {
  readonly instanceId: string;
  readonly timing: OutboxTiming;
  /** What this instance has done since it started (for logs and tests). */
  readonly stats = { sent: 0, retried: 0, failed: 0, test: 0 };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = true;
  private readonly wake = () => this.schedule(20);

  constructor(
    private readonly options: {
      db: Db;
      secrets: SecretBox;
      instanceId?: string;
      /** True when no other instance can be running (no Redis): every `sending` row at start is an orphan. */
      singleInstance?: boolean;
      timing?: Partial<OutboxTiming>;
      log?: (message: string, error?: unknown) => void;
    },
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.timing = { ...DEFAULT_OUTBOX_TIMING, ...options.timing };
  }

  async start(): Promise<void> {
    this.closed = false;
    if (this.options.singleInstance) {
      // Rows a previous run of this (only) instance was sending when it died: their fate is unknown, send again.
      await this.options.db
        .update(emailOutbox)
        .set({ status: "queued", claimedBy: null, claimedAt: null })
        .where(eq(emailOutbox.status, "sending"));
    }
    wakers.add(this.wake);
    this.schedule(0);
  }

  /** Stops the timer and waits for the batch in flight (its rows end as sent or queued, never stuck). */
  async close(): Promise<void> {
    this.closed = true;
    wakers.delete(this.wake);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delayMs);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    if (this.closed) return;
    this.running = this.drain()
      .then(() => undefined)
      .catch((error) => this.options.log?.("outbox worker failed", error))
      .finally(() => {
        this.running = undefined;
        const soon = this.again;
        this.again = false;
        this.schedule(soon ? 0 : this.timing.tickMs);
      });
  }

  /** Sends what is due until a batch comes back short (tests call it to run the queue at once). */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const count = await this.runOnce();
      handled += count;
      if (count < this.timing.batchSize || this.closed) return handled;
    }
  }

  /** Claims one batch of due rows and handles them; answers how many it claimed. */
  async runOnce(): Promise<number> {
    const { db } = this.options;
    const ids = await this.claim();
    if (ids.length === 0) return 0;
    const rows = await db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids));
    const settings = await readPlatformSettings(db);
    let connection: SmtpConnection | null;
    try {
      connection = connectionFromSettings(settings, this.options.secrets);
    } catch (error) {
      for (const row of rows) await this.failed(row, error, undefined);
      return ids.length;
    }
    if (!connection) {
      // No SMTP server: the virtual test inbox. Kept, never sent, previewable by admins.
      await db
        .update(emailOutbox)
        .set({ status: "test", claimedBy: null, claimedAt: null })
        .where(and(inArray(emailOutbox.id, ids), eq(emailOutbox.claimedBy, this.instanceId)));
      this.stats.test += ids.length;
      return ids.length;
    }
    const transport = await createTransport(connection);
    const from = fromAddress(settings);
    try {
      for (const row of rows) {
        try {
          await transport.sendMail({ from, to: row.toAddress, subject: row.subject, text: row.textBody, html: row.htmlBody });
        } catch (error) {
          await this.failed(row, error, connection);
          continue;
        }
        await db
          .update(emailOutbox)
          // The attempt that sent it counts too: a first-time send reads 1 attempt, a send after two failures 3.
          .set({
            status: "sent",
            attempts: sql`${emailOutbox.attempts} + 1`,
            sentAt: new Date(),
            lastError: null,
            claimedBy: null,
            claimedAt: null,
            ...scrubbedSecrets(row),
          })
          .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.claimedBy, this.instanceId)));
        this.stats.sent += 1;
      }
    } finally {
      transport.close();
    }
    return ids.length;
  }

  /** The due rows (and those of a dead sender) become `sending` for this instance, in one statement. */
  private async claim(): Promise<number[]> {
    const staleSeconds = Math.max(1, Math.round(this.timing.staleClaimMs / 1000));
    const result = await this.options.db.execute(sql`
      with due as (
        select id from email_outbox
        where (status = 'queued' and next_attempt_at <= now())
           or (status = 'sending' and claimed_at < now() - make_interval(secs => ${staleSeconds}::int))
        order by next_attempt_at, id
        limit ${this.timing.batchSize}::int
        for update skip locked
      )
      update email_outbox as o
      set status = 'sending', claimed_by = ${this.instanceId}, claimed_at = now()
      from due
      where o.id = due.id
      returning o.id`);
    return (result.rows as { id: number | string }[]).map((row) => Number(row.id));
  }

  private async failed(row: typeof emailOutbox.$inferSelect, error: unknown, connection: SmtpConnection | undefined): Promise<void> {
    const { reason, permanent } = describeSmtpError(error, connection);
    const attempts = row.attempts + 1;
    const giveUp = permanent || totalRetryWaitMs(attempts, this.timing) >= this.timing.giveUpAfterMs;
    await this.options.db
      .update(emailOutbox)
      .set({
        status: giveUp ? "failed" : "queued",
        attempts,
        lastError: reason,
        nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts, this.timing)),
        claimedBy: null,
        claimedAt: null,
      })
      .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.claimedBy, this.instanceId)));
    if (giveUp) this.stats.failed += 1;
    else this.stats.retried += 1;
  }
}

/**
 * A reset link is a password for an hour: once its email has left, the outbox keeps the email without it, so
 * the outbox page, a database dump or a backup cannot hand it out. (Test-inbox copies keep it: without SMTP
 * that inbox is the only way the link reaches anyone.)
 */
function scrubbedSecrets(row: { templateSlug: string | null; textBody: string; htmlBody: string }) {
  if (row.templateSlug !== PRODUCT_EMAILS.passwordReset) return {};
  const scrub = (body: string) => body.replace(/([?&]token=)[A-Za-z0-9_-]+/g, "$1(removed once sent)");
  return { textBody: scrub(row.textBody), htmlBody: scrub(row.htmlBody) };
}
