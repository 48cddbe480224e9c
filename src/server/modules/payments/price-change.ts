import { and, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { isUniqueViolation } from "../../lib/db-errors.js";
import { stripeCall } from "./stripe-errors.js";

/** The `problem` of a checkout voided by a price change (status `voided`). */
export const VOIDED_BY_PRICE = "Voided: the Early Access price changed before it was paid.";
/** The `problem` of a voided checkout paid anyway (status `attention`): it never grants Early Access at the old price. */
export const PAID_AFTER_VOID =
  "Paid at the old price on a checkout that a price change had voided: Early Access was not granted. Refund it, or grant it by hand.";
/**
 * How long after a void a payment found on it waits for the cancel's answer before it goes to an admin: the
 * save that voided it may still be asking Stripe, and a refused cancel (already paid) honours the payment.
 */
export const VOID_SETTLING_MS = 2 * 60_000;

export type VoidedCheckout = { id: number; paymentIntentId: string | null };
/**
 * What Stripe said when the intent of a voided checkout was cancelled: `cancelled` (it can never be paid),
 * `honoured` (it had already succeeded: the checkout is open again and any finishing step grants it),
 * `paid` (succeeded, found later: it goes to an admin), `processing` (neither yet: asked again later),
 * `unreachable` (asked again later).
 */
export type VoidOutcome = "cancelled" | "honoured" | "paid" | "processing" | "unreachable";

/** Open checkouts whose intent records another price than this one (minor units, lowercase currency). */
export const atOtherPrice = (price: { amountMinor: number; currency: string }): SQL =>
  sql`(${pendingCheckouts.amountMinor} is distinct from ${price.amountMinor} or ${pendingCheckouts.currency} is distinct from ${price.currency})`;

/**
 * Voids the open checkouts with an intent that match `where`, in the caller's transaction (the price save
 * holds the settings lock, so no intent at the old price is recorded after it). Their holds end at once;
 * the password hash stays until Stripe confirms the cancel (a payment that beat the cancel is honoured).
 */
export async function voidOpenCheckouts(tx: Db, where: SQL): Promise<VoidedCheckout[]> {
  const now = new Date();
  return tx
    .update(pendingCheckouts)
    .set({ status: "voided", problem: VOIDED_BY_PRICE, voidedAt: now, checkedAt: null, updatedAt: now })
    .where(and(eq(pendingCheckouts.status, "pending"), isNotNull(pendingCheckouts.paymentIntentId), where))
    .returning({ id: pendingCheckouts.id, paymentIntentId: pendingCheckouts.paymentIntentId });
}

/**
 * Cancels the intent of each voided checkout (4 at a time). Stripe's answer decides, decision 029: cancelled,
 * it can never be paid; refused because it already succeeded and `honour` (the cancel sent right after the
 * void), the payment beat the change and is honoured; anything else is left to the reconciler, which never
 * honours (it cannot tell when the payment was made), so such a payment goes to an admin.
 */
export async function settleVoided(
  deps: { db: Db; stripe: Stripe },
  rows: VoidedCheckout[],
  options: { honour: boolean },
): Promise<VoidOutcome[]> {
  const outcomes: VoidOutcome[] = [];
  for (let i = 0; i < rows.length; i += 4) {
    outcomes.push(...(await Promise.all(rows.slice(i, i + 4).map((row) => settleOne(deps, row, options.honour)))));
  }
  return outcomes;
}

async function settleOne(deps: { db: Db; stripe: Stripe }, row: VoidedCheckout, honour: boolean): Promise<VoidOutcome> {
  const { db, stripe } = deps;
  const intentId = row.paymentIntentId;
  let status: string;
  if (!intentId) {
    status = "canceled";
  } else {
    try {
      status = (await stripe.paymentIntents.cancel(intentId)).status;
    } catch {
      // Refused (already paid, processing or cancelled) or not answered: ask what the intent is now.
      try {
        status = (await stripeCall(() => stripe.paymentIntents.retrieve(intentId))).status;
      } catch (error) {
        // Not an intent of this Stripe account (the keys changed): nothing can pay it here.
        if (error instanceof AppError && error.code === "NOT_FOUND") status = "canceled";
        else return "unreachable";
      }
    }
  }
  const here = and(eq(pendingCheckouts.id, row.id), eq(pendingCheckouts.status, "voided"));
  if (status === "canceled") {
    await db.update(pendingCheckouts).set({ checkedAt: new Date(), passwordHash: null }).where(here);
    return "cancelled";
  }
  if (status === "succeeded") {
    if (!honour) return "paid";
    try {
      const [reopened] = await db
        .update(pendingCheckouts)
        .set({ status: "pending", problem: null, checkedAt: new Date(), updatedAt: new Date() })
        .where(here)
        .returning({ id: pendingCheckouts.id });
      return reopened ? "honoured" : "paid";
    } catch (error) {
      // A newer open checkout of the same email or account: this payment goes to an admin instead.
      if (isUniqueViolation(error)) return "paid";
      throw error;
    }
  }
  return status === "processing" ? "processing" : "unreachable";
}
