import { and, asc, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { SYSTEM } from "../activity/activity-log.js";
import { type CompleteDeps, completeCheckout } from "./complete-checkout.js";
import type { StripeGateway } from "./gateway.js";
import { settleVoided, VOID_SETTLING_MS } from "./price-change.js";
import { stripeCall } from "./stripe-errors.js";

const EVERY_MS = 60_000;
const QUIET_MS = 2 * 60_000;
const EXPIRE_MS = 7 * 24 * 60 * 60_000;
const BATCH = 20;

/**
 * Payments never stay stuck: every minute, checkouts with an intent that nobody finished (the tab was
 * closed, the webhook is not set up, the instance was killed mid-way) are checked against Stripe and
 * finished when paid. Checkouts older than a week that were never paid are cancelled and removed. Checkouts
 * voided by a price change whose intent Stripe has not confirmed cancelled are cancelled again; one paid
 * meanwhile goes to the admins (decision 029). Any instance may run it: finishing is idempotent. What it finishes
 * is logged as the server's own act (SYSTEM: no IP, no user agent), never as a request's.
 */
export class CheckoutReconciler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: Omit<CompleteDeps, "stripe" | "meta"> & {
      db: Db;
      gateway: StripeGateway;
      logError: (message: string, error: unknown) => void;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
  }

  /** One pass (also called by tests). */
  runOnce(): Promise<void> {
    this.running ??= this.pass()
      .catch((error) => this.deps.logError("reconciling checkouts failed", error))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<void> {
    const { db } = this.deps;
    const stripe = await this.deps.gateway.stripeIfConfigured();
    if (!stripe) return;
    const now = Date.now();
    const rows = await db
      .select({ id: pendingCheckouts.id, paymentIntentId: pendingCheckouts.paymentIntentId, createdAt: pendingCheckouts.createdAt })
      .from(pendingCheckouts)
      .where(
        and(
          eq(pendingCheckouts.status, "pending"),
          lt(pendingCheckouts.updatedAt, new Date(now - QUIET_MS)),
          or(isNotNull(pendingCheckouts.paymentIntentId), lt(pendingCheckouts.createdAt, new Date(now - EXPIRE_MS))),
        ),
      )
      // Least recently checked first; `checked_at` is the reconciler's own clock (the 30-minute hold reads created_at).
      .orderBy(sql`${pendingCheckouts.checkedAt} asc nulls first`, asc(pendingCheckouts.id))
      .limit(BATCH);
    for (const row of rows) {
      const expired = row.createdAt.getTime() < now - EXPIRE_MS;
      try {
        if (row.paymentIntentId) {
          const intentId = row.paymentIntentId;
          // stripeCall: a Stripe error becomes a plain AppError, so no raw answer (client secret) reaches the logs.
          const intent = await stripeCall(() => stripe.paymentIntents.retrieve(intentId));
          if (intent.status === "succeeded") {
            await completeCheckout({ ...this.deps, meta: SYSTEM, stripe, paymentIntentId: intent.id }).catch((error) =>
              this.deps.logError(`checkout ${row.id} is paid but could not finish`, error),
            );
            continue;
          }
          if (!expired) {
            await db.update(pendingCheckouts).set({ checkedAt: new Date() }).where(eq(pendingCheckouts.id, row.id));
            continue;
          }
          if (intent.status !== "canceled" && intent.status !== "processing")
            await stripeCall(() => stripe.paymentIntents.cancel(intent.id));
          if (intent.status === "processing") continue;
        } else if (!expired) {
          continue;
        }
        await db.delete(pendingCheckouts).where(and(eq(pendingCheckouts.id, row.id), eq(pendingCheckouts.status, "pending")));
      } catch (error) {
        this.deps.logError(`reconciling checkout ${row.id} failed`, error);
      }
    }
    await this.settleVoided(stripe, now);
  }

  /** Voided checkouts whose cancel Stripe has not confirmed (it was unreachable, or the intent was processing). */
  private async settleVoided(stripe: Stripe, now: number): Promise<void> {
    const { db } = this.deps;
    const rows = await db
      .select({ id: pendingCheckouts.id, paymentIntentId: pendingCheckouts.paymentIntentId })
      .from(pendingCheckouts)
      .where(
        and(
          eq(pendingCheckouts.status, "voided"),
          isNull(pendingCheckouts.checkedAt),
          isNotNull(pendingCheckouts.paymentIntentId),
          // Left alone while the save that voided it may still be asking Stripe (that one may honour a payment).
          lt(pendingCheckouts.updatedAt, new Date(now - Math.max(QUIET_MS, VOID_SETTLING_MS))),
        ),
      )
      .orderBy(asc(pendingCheckouts.updatedAt), asc(pendingCheckouts.id))
      .limit(BATCH);
    // Never honoured from here: when a payment found now was made cannot be told, so an admin decides.
    const outcomes = await settleVoided({ db, stripe }, rows, { honour: false });
    for (const [i, row] of rows.entries()) {
      const outcome = outcomes[i];
      if (outcome === "paid" && row.paymentIntentId) {
        // Moves it to the admins' list; the 409 that says so is expected, not a failure.
        await completeCheckout({ ...this.deps, meta: SYSTEM, stripe, paymentIntentId: row.paymentIntentId }).catch((error) => {
          if (!(error instanceof AppError && error.statusCode < 500))
            this.deps.logError(`voided checkout ${row.id} could not be settled`, error);
        });
      } else if (outcome === "processing" || outcome === "unreachable") {
        // Asked again on a later pass, after the others.
        await db.update(pendingCheckouts).set({ updatedAt: new Date() }).where(eq(pendingCheckouts.id, row.id));
      }
    }
  }
}
