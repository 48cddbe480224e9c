import { and, eq, notInArray } from "drizzle-orm";
import type Stripe from "stripe";
import { PRICE_CHANGED } from "../../../shared/contracts/payments.js";
import { formatPrice } from "../../../shared/format-price.js";
import { fromMinorUnits } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { conflictAfterRace } from "../accounts/account-free.js";
import { type ActivitySource, logActivity } from "../activity/activity-log.js";
import { insertAccount } from "../auth/auth-service.js";
import { PRODUCT_EMAILS } from "../email/product-email-slugs.js";
import { type EmailFailureLog, queueProductEmail } from "../email/product-emails.js";
import type { SessionStore } from "../sessions/session-store.js";
import { userChanged } from "../sessions/user-changed.js";
import { PAID_AFTER_VOID, VOID_SETTLING_MS } from "./price-change.js";
import { PAYMENT_NOT_FOUND, stripeCall } from "./stripe-errors.js";

type Checkout = typeof pendingCheckouts.$inferSelect;

export const NEEDS_SUPPORT =
  "Your payment was received, but your account could not be set up automatically. Please contact support: your payment is safe and nothing was lost.";
/** The `problem` of a checkout replaced by a newer one for the same email (status `abandoned`). */
export const REPLACED_CHECKOUT = "Replaced by a newer checkout for the same email.";
/** The `problem` of a checkout whose visitor created a free account instead (status `abandoned`). */
export const FREE_INSTEAD = "The visitor registered on the Free plan instead.";
export const AMOUNT_MISMATCH = "The amount paid does not match the Early Access price. Please contact support: your payment is safe.";
/** A payment that reached a checkout voided by a price change (decision 029): never Early Access at the old price. */
export const PAID_AFTER_PRICE_CHANGE =
  "The price changed while you were paying, and your payment at the old price arrived after the change, so it could not be used. Your payment is safe: please contact support to have it refunded.";
/** A payment found on a checkout voided a moment ago, while the save that voided it still asks Stripe about it. */
export const PAYMENT_BEING_CHECKED = "The price changed just as you paid: your payment is being checked. Please try again in a minute.";

export interface CompleteDeps {
  db: Db;
  sessions: SessionStore;
  stripe: Stripe;
  /** Where the welcome email's link points. */
  loginUrl: string;
  /** The request that finished it (the browser's, the webhook's), or SYSTEM for the reconciler. */
  meta: ActivitySource;
  log?: EmailFailureLog;
}

/** What an intent that has not succeeded means for the person paying (402). */
function notPaidMessage(intent: Stripe.PaymentIntent): string {
  switch (intent.status) {
    case "processing":
      return "Your payment is still processing. Your account will be ready as soon as Stripe confirms it.";
    case "canceled":
      return "This payment was canceled. Please start the checkout again.";
    case "requires_payment_method":
      return intent.last_payment_error?.message
        ? `The payment did not go through: ${intent.last_payment_error.message}`
        : "The payment has not been completed yet.";
    default:
      return "The payment has not been completed yet.";
  }
}

/**
 * The one step that turns a verified payment into Early Access, reached from the browser (POST
 * /api/register, POST /api/early-access/complete), the webhook and the reconciler, whichever comes first.
 * It retrieves the intent from Stripe (the browser's word is never taken), checks it succeeded for the
 * amount and currency recorded with this checkout, then creates the account (or upgrades it) in one
 * transaction that holds the checkout row: a second call finds it completed and does nothing again.
 * A paid checkout that cannot finish is kept for an admin (`attention`) and said so, never lost.
 */
export async function completeCheckout(deps: CompleteDeps & { paymentIntentId: string }): Promise<{ checkout: Checkout; userId: number }> {
  const { db, stripe } = deps;
  const intent = await stripeCall(() => stripe.paymentIntents.retrieve(deps.paymentIntentId));
  const checkoutId = Number(intent.metadata?.pendingCheckoutId);
  const readCheckout = async () =>
    Number.isSafeInteger(checkoutId) ? await db.select().from(pendingCheckouts).where(eq(pendingCheckouts.id, checkoutId)).limit(1) : [];
  let [checkout] = await readCheckout();
  // Not an Early Access intent of ours (the Stripe account may sell other things): nothing to do here.
  if (!checkout) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  if (checkout.paymentIntentId !== intent.id) {
    // A paid intent its checkout no longer uses (the checkout was restarted or replaced): kept for an admin.
    if (intent.status === "succeeded") await keepOrphanPayment(db, intent, checkout);
    throw new AppError(
      intent.status === "succeeded" ? "CONFLICT" : "NOT_FOUND",
      intent.status === "succeeded" ? NEEDS_SUPPORT : PAYMENT_NOT_FOUND,
    );
  }
  if (checkout.status === "completed" && checkout.userId) return { checkout, userId: checkout.userId };
  if (checkout.status === "voided") {
    await refuseVoided(db, intent, checkout);
    // Reopened meanwhile: the save that voided it found this payment already taken, and honours it.
    [checkout] = await readCheckout();
    if (!checkout) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  }
  if (intent.status !== "succeeded") throw new AppError("PAYMENT_REQUIRED", notPaidMessage(intent));
  if (intent.amount_received !== checkout.amountMinor || intent.currency !== checkout.currency) {
    const expected = formatPrice(fromMinorUnits(checkout.amountMinor ?? 0, checkout.currency ?? "usd"), checkout.currency ?? "usd");
    const received = formatPrice(fromMinorUnits(intent.amount_received, intent.currency), intent.currency);
    await markAttention(db, checkout.id, `Paid ${received}, but the checkout recorded ${expected}.`);
    throw new AppError("PAYMENT_REQUIRED", AMOUNT_MISMATCH);
  }

  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(pendingCheckouts).where(eq(pendingCheckouts.id, checkout.id)).limit(1).for("update");
    if (!row) return { problem: "The checkout row disappeared." } as const;
    if (row.status === "completed" && row.userId) return { userId: row.userId, fresh: false, row } as const;
    // Abandoned (replaced, or Free chosen instead) after or while it was paid: kept for an admin, never lost.
    if (row.status === "abandoned") return { problem: `Paid after the checkout was abandoned: ${row.problem ?? "replaced"}` } as const;
    // Voided by a price change since it was read: asked again, it goes through refuseVoided.
    if (row.status === "voided") return { voided: true } as const;
    if (row.status !== "pending") return { blocked: true } as const;
    const amount = formatPrice(fromMinorUnits(intent.amount_received, intent.currency), intent.currency);
    const currency = intent.currency.toUpperCase();
    let user: { id: number; email: string | null; name: string | null; username: string };
    if (row.kind === "register") {
      if (!row.passwordHash || !row.email) return { problem: "The registration details are missing." } as const;
      const account = { username: row.username, name: row.name, email: row.email, passwordHash: row.passwordHash };
      try {
        user = await tx
          .transaction((savepoint) =>
            insertAccount({
              tx: savepoint,
              account,
              planType: "earlyAccess",
              registrationMustBeOpen: false,
              loginUrl: deps.loginUrl,
              log: deps.log,
            }),
          )
          // The savepoint is rolled back: the transaction can still say which name a racing write took.
          .catch((error: unknown) => conflictAfterRace(tx, error, account));
      } catch (error) {
        if (error instanceof AppError && error.code === "CONFLICT")
          return { problem: `Paid, but the account could not be created: ${error.message.toLowerCase()}.` } as const;
        throw error;
      }
    } else {
      const [upgraded] = await tx
        .update(users)
        .set({ planType: "earlyAccess", updatedAt: new Date() })
        .where(eq(users.id, row.userId ?? -1))
        .returning({ id: users.id, email: users.email, name: users.name, username: users.username });
      if (!upgraded) return { problem: "Paid, but the account to upgrade no longer exists." } as const;
      user = upgraded;
    }
    const [done] = await tx
      .update(pendingCheckouts)
      .set({ status: "completed", userId: user.id, passwordHash: null, completedAt: new Date(), updatedAt: new Date() })
      .where(eq(pendingCheckouts.id, row.id))
      .returning();
    await queueProductEmail({
      db: tx,
      to: user.email,
      template: PRODUCT_EMAILS.earlyAccessReceipt,
      data: { name: user.name ?? user.username, amount, currency },
      log: deps.log,
    });
    return { userId: user.id, fresh: true, row: done ?? row, kind: row.kind } as const;
  });

  if ("blocked" in outcome) throw new AppError("CONFLICT", NEEDS_SUPPORT);
  if ("voided" in outcome) throw new AppError("CONFLICT", PAYMENT_BEING_CHECKED);
  if ("problem" in outcome) {
    await markAttention(db, checkout.id, outcome.problem ?? "Paid, but the checkout could not finish.");
    throw new AppError("CONFLICT", NEEDS_SUPPORT);
  }
  if (outcome.fresh) {
    if (outcome.kind === "upgrade") await userChanged(deps.sessions, outcome.userId);
    if (outcome.kind === "register") await logActivity(db, { userId: outcome.userId, action: "register", ...deps.meta });
    await logActivity(db, { userId: outcome.userId, action: "early_access_purchase", ...deps.meta });
  }
  return { checkout: outcome.row, userId: outcome.userId };
}

/**
 * A checkout voided by a price change (decision 029). Unpaid: 409, start again at the new price. Paid: never
 * Early Access at the old price, it goes to the admins (refund) — unless the save that voided it is still
 * asking Stripe (a few seconds at most; VOID_SETTLING_MS): a cancel Stripe refuses because the payment was
 * already taken honours it, so until then the answer is "try again in a minute". Returns only when the
 * checkout was reopened that way.
 */
async function refuseVoided(db: Db, intent: Stripe.PaymentIntent, checkout: Checkout): Promise<void> {
  if (intent.status === "processing") throw new AppError("PAYMENT_REQUIRED", notPaidMessage(intent));
  if (intent.status !== "succeeded") throw new AppError("CONFLICT", PRICE_CHANGED);
  const settling = checkout.checkedAt === null && (checkout.voidedAt?.getTime() ?? 0) > Date.now() - VOID_SETTLING_MS;
  if (settling) throw new AppError("CONFLICT", PAYMENT_BEING_CHECKED);
  const [kept] = await db
    .update(pendingCheckouts)
    .set({ status: "attention", problem: PAID_AFTER_VOID, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, checkout.id), eq(pendingCheckouts.status, "voided")))
    .returning({ id: pendingCheckouts.id });
  if (kept) throw new AppError("CONFLICT", PAID_AFTER_PRICE_CHANGE);
}

/** Kept for an admin; a checkout already finished (or settled by an admin) is never moved back to the list. */
async function markAttention(db: Db, checkoutId: number, problem: string): Promise<void> {
  await db
    .update(pendingCheckouts)
    .set({ status: "attention", problem, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, checkoutId), notInArray(pendingCheckouts.status, ["completed", "resolved"])));
}

/** A succeeded intent whose checkout moved on to another intent: one `attention` row per intent. */
async function keepOrphanPayment(db: Db, intent: Stripe.PaymentIntent, checkout: Checkout): Promise<void> {
  await db
    .insert(pendingCheckouts)
    .values({
      kind: checkout.kind,
      status: "attention",
      userId: checkout.kind === "upgrade" ? checkout.userId : null,
      username: checkout.username,
      name: checkout.name,
      email: checkout.email,
      bindingNonce: "none",
      paymentIntentId: intent.id,
      amountMinor: intent.amount_received,
      currency: intent.currency,
      problem: "Paid an intent that its checkout no longer uses (the checkout was restarted or replaced).",
    })
    .onConflictDoNothing();
}
