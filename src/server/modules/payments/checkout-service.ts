import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { z } from "zod";
import {
  ALREADY_EARLY_ACCESS,
  type CheckoutStatus,
  type checkoutRegistrationSchema,
  MISSING_REGISTRATION,
  PRICE_CHANGED,
} from "../../../shared/contracts/payments.js";
import { toMinorUnits } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Who } from "../../lib/who.js";
import { assertNameFree, assertRegistrationOpen, CHECKOUT_HOLD_IDLE_MS, EMAIL_HELD } from "../auth/auth-service.js";
import { bindingToken, newBindingNonce, tokenBindsCheckout, tokenCheckoutId } from "./checkout-binding.js";
import { assertAddressHasRoom, holdIsLive, lockAddress, touchHold } from "./checkout-holds.js";
import { FREE_INSTEAD, NEEDS_SUPPORT, REPLACED_CHECKOUT } from "./complete-checkout.js";
import type { StripeGateway } from "./gateway.js";
import { settleVoided, voidOpenCheckouts } from "./price-change.js";
import { readPrice, recordIntentAtCurrentPrice } from "./settings-service.js";
import { PAYMENT_NOT_FOUND, stripeCall } from "./stripe-errors.js";

type Checkout = typeof pendingCheckouts.$inferSelect;
type Deps = { db: Db; secrets: SecretBox; gateway: StripeGateway };

export interface StartedCheckout {
  clientSecret: string;
  paymentIntentId: string;
  /** The binding cookie's value (a registration checkout), to set on the answer. */
  bindingToken: string | null;
}

export const PAYMENT_IN_PROGRESS = "A payment for this email is being processed. Please wait a few minutes, or contact support.";
export const CHECKOUT_ENDED = "This checkout has ended. Please start again.";

/** Intents that can still be paid (or are being paid): the checkout keeps them. */
const OPEN_INTENT = new Set(["requires_payment_method", "requires_confirmation", "requires_action", "processing", "succeeded"]);
/** Intents nobody has paid yet: at a price no longer in force, their checkout is voided. */
const PAYABLE_INTENT = new Set(["requires_payment_method", "requires_confirmation", "requires_action"]);

const CLAIMS_ALLOWED = 5;
const CLAIM_WINDOW_MS = 15 * 60_000;

/**
 * Step 2 with Early Access (signed out): the form is checked with the registration rules, the name must
 * be free, and the registration is saved as a pending checkout (password hashed at once; nothing usable
 * yet) with a PaymentIntent for the price of the moment.
 * - The same browser (its cookie), or whoever proves the same email's password (a double submit, another
 *   tab; 5 tries per 15 minutes), continues that checkout: the same details keep the same intent; changed
 *   details get a new binding and a new intent, so a tab open elsewhere cannot pay for details it did not see.
 * - A checkout holds its username and email while its page is alive (seen in the last 5 minutes); after that
 *   someone else with that email replaces it (unless its payment went through or is processing). One
 *   address keeps at most HOLDS_PER_ADDRESS live holds (429 past that), counted under a per-address lock.
 */
export async function startRegistrationCheckout(
  deps: Deps & { counters: CounterStore; input: z.output<typeof checkoutRegistrationSchema>; token: string | null; ip: string },
): Promise<StartedCheckout> {
  const { db, input } = deps;
  const { stripe } = await deps.gateway.stripe();
  await assertRegistrationOpen(db);
  await assertNameFree(db, input, { checkouts: "otherEmails" });
  const passwordHash = await hashPassword(input.password);
  const account = { username: input.username, name: input.name, email: input.email, passwordHash };
  const sameDetails = (row: Checkout) => row.username === account.username && row.name === account.name && row.email === account.email;

  const cancelled: string[] = [];
  let checkout: Checkout | null = null;
  // Two parallel first submits: the second waits on the open-email index, then finds the first's row.
  for (let attempt = 0; attempt < 2 && !checkout; attempt++) {
    checkout = await db.transaction(async (tx) => {
      await lockAddress(tx, deps.ip);
      const ownedId = tokenCheckoutId(deps.token);
      let row = ownedId ? ((await lockOpen(tx, eq(pendingCheckouts.id, ownedId), "register")) ?? null) : null;
      if (row && !tokenBindsCheckout(deps.secrets, deps.token, row)) row = null;
      let passwordMatches = false;
      const other = await lockOpen(
        tx,
        and(sql`lower(${pendingCheckouts.email}) = ${account.email}`, row ? ne(pendingCheckouts.id, row.id) : undefined),
        "register",
      );
      if (other) {
        if (!row && other.passwordHash && (await provesPassword(deps.counters, other, input.password))) {
          row = other;
          passwordMatches = true;
        } else if (holdIsLive(other)) {
          throw new AppError("CONFLICT", EMAIL_HELD, { errors: { email: EMAIL_HELD } });
        } else {
          const otherIntent = other.paymentIntentId;
          if (otherIntent) {
            const intent = await stripeCall(() => stripe.paymentIntents.retrieve(otherIntent));
            if (intent.status === "succeeded" || intent.status === "processing") {
              throw new AppError("CONFLICT", PAYMENT_IN_PROGRESS, { errors: { email: PAYMENT_IN_PROGRESS } });
            }
            cancelled.push(otherIntent);
          }
          await tx
            .update(pendingCheckouts)
            .set({ status: "abandoned", problem: REPLACED_CHECKOUT, passwordHash: null, updatedAt: new Date() })
            .where(eq(pendingCheckouts.id, other.id));
        }
      }
      // The hold is this address's from now on: a new one (or one revived, or moved here) needs room.
      const alive = { clientIp: deps.ip, lastSeenAt: new Date() };
      if (row) {
        if (!holdIsLive(row) || row.clientIp !== deps.ip) await assertAddressHasRoom(tx, deps.ip, row.id);
        if (!passwordMatches && row.passwordHash) passwordMatches = await verifyPassword(row.passwordHash, input.password);
        if (passwordMatches && sameDetails(row)) {
          const [same] = await tx.update(pendingCheckouts).set(alive).where(eq(pendingCheckouts.id, row.id)).returning();
          return same ?? null;
        }
        if (row.paymentIntentId) cancelled.push(row.paymentIntentId);
        const [updated] = await tx
          .update(pendingCheckouts)
          .set({
            ...account,
            ...alive,
            bindingNonce: newBindingNonce(),
            paymentIntentId: null,
            amountMinor: null,
            currency: null,
            updatedAt: new Date(),
          })
          .where(eq(pendingCheckouts.id, row.id))
          .returning();
        return updated ?? null;
      }
      await assertAddressHasRoom(tx, deps.ip, null);
      const [inserted] = await tx
        .insert(pendingCheckouts)
        .values({ kind: "register", ...account, ...alive, bindingNonce: newBindingNonce() })
        .onConflictDoNothing()
        .returning();
      return inserted ?? null;
    });
  }
  if (!checkout) throw new AppError("CONFLICT", "Another checkout for this email started at the same moment. Please try again.");
  // Intents that can no longer be paid for these details (if one was paid meanwhile, the payment goes to an admin).
  for (const id of cancelled) void stripe.paymentIntents.cancel(id).catch(() => undefined);
  const intent = await ensureIntent({ ...deps, stripe, checkout });
  return { ...intent, bindingToken: bindingToken(deps.secrets, checkout) };
}

/** Whether the password is the checkout's; counted first (atomically), so 5 wrong tries per 15 minutes end the guessing. */
async function provesPassword(counters: CounterStore, checkout: Checkout, password: string): Promise<boolean> {
  const state = await counters.hit(`checkout-claim:${checkout.email ?? ""}`, CLAIM_WINDOW_MS);
  if (state.count > CLAIMS_ALLOWED) {
    const minutes = Math.max(1, Math.ceil(state.resetInMs / 60_000));
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many attempts for this email. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      {
        retryAfterSeconds: Math.ceil(state.resetInMs / 1000),
      },
    );
  }
  return checkout.passwordHash !== null && verifyPassword(checkout.passwordHash, password);
}

/** The open registration checkout this browser's cookie binds, or null. */
export async function ownOpenCheckoutId(deps: { db: Db; secrets: SecretBox; token: string | null }): Promise<number | null> {
  const id = tokenCheckoutId(deps.token);
  if (!id) return null;
  const [row] = await deps.db
    .select()
    .from(pendingCheckouts)
    .where(and(eq(pendingCheckouts.id, id), eq(pendingCheckouts.kind, "register"), eq(pendingCheckouts.status, "pending")))
    .limit(1);
  return row && tokenBindsCheckout(deps.secrets, deps.token, row) ? row.id : null;
}

/** The visitor registered on the Free plan instead: the checkout ends and its intent is cancelled. */
export async function abandonCheckout(deps: { db: Db; gateway: StripeGateway; checkoutId: number }): Promise<void> {
  const [row] = await deps.db
    .update(pendingCheckouts)
    .set({ status: "abandoned", problem: FREE_INSTEAD, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, deps.checkoutId), eq(pendingCheckouts.status, "pending")))
    .returning({ paymentIntentId: pendingCheckouts.paymentIntentId });
  const intentId = row?.paymentIntentId;
  if (!intentId) return;
  const stripe = await deps.gateway.stripeIfConfigured().catch(() => null);
  await stripe?.paymentIntents.cancel(intentId).catch(() => undefined);
}

/**
 * The checkout page of a signed-out visitor: the checkout this browser started, and its intent (its hold
 * renewed). A checkout voided by a price change answers 409: the visitor starts again at the new price.
 */
export async function resumeRegistrationCheckout(deps: Deps & { token: string | null }): Promise<StartedCheckout> {
  const { stripe } = await deps.gateway.stripe();
  const id = tokenCheckoutId(deps.token);
  const [checkout] = id
    ? await deps.db
        .select()
        .from(pendingCheckouts)
        .where(and(eq(pendingCheckouts.id, id), eq(pendingCheckouts.kind, "register")))
        .limit(1)
    : [];
  if (!checkout || !tokenBindsCheckout(deps.secrets, deps.token, checkout)) {
    throw new AppError("BAD_REQUEST", MISSING_REGISTRATION);
  }
  if (checkout.status === "voided") throw new AppError("CONFLICT", PRICE_CHANGED);
  if (checkout.status !== "pending") throw new AppError("BAD_REQUEST", MISSING_REGISTRATION);
  await touchHold(deps.db, checkout.id);
  const intent = await ensureIntent({ ...deps, stripe, checkout });
  return { ...intent, bindingToken: null };
}

/**
 * "Get Early Access" of a signed-in free user: the same checkout, but it upgrades this account. One open
 * upgrade per account (a double click finds the first); an account that has Early Access is refused.
 */
export async function startUpgradeCheckout(deps: Deps & { who: Who }): Promise<StartedCheckout> {
  const { db, who } = deps;
  if (who.planType === "earlyAccess") throw new AppError("CONFLICT", ALREADY_EARLY_ACCESS);
  const { stripe } = await deps.gateway.stripe();
  const [inserted] = await db
    .insert(pendingCheckouts)
    .values({ kind: "upgrade", userId: who.id, username: who.username, name: who.name, email: who.email, bindingNonce: newBindingNonce() })
    .onConflictDoNothing()
    .returning();
  const checkout =
    inserted ??
    (
      await db
        .select()
        .from(pendingCheckouts)
        .where(and(eq(pendingCheckouts.userId, who.id), eq(pendingCheckouts.kind, "upgrade"), eq(pendingCheckouts.status, "pending")))
        .limit(1)
    )[0];
  if (!checkout) throw new AppError("CONFLICT", "Your checkout changed at the same moment. Please try again.");
  const intent = await ensureIntent({ ...deps, stripe, checkout });
  return { ...intent, bindingToken: null };
}

async function lockOpen(tx: Db, where: ReturnType<typeof and>, kind: Checkout["kind"]): Promise<Checkout | undefined> {
  const [row] = await tx
    .select()
    .from(pendingCheckouts)
    .where(and(where, eq(pendingCheckouts.kind, kind), eq(pendingCheckouts.status, "pending")))
    .limit(1)
    .for("update");
  return row;
}

/**
 * The checkout's PaymentIntent: the one it has while that can still be paid, else a new one at today's
 * price. An unpaid intent at a price no longer in force (a price change this checkout missed) voids the
 * checkout: 409, start again. A new intent is recorded only while its price is still the one in force (under
 * the settings lock, shared); a price saved in between makes one more at the new price. The idempotency key
 * names the checkout, its binding, the intent it replaces and the amount, so parallel calls get one intent.
 */
async function ensureIntent(deps: Deps & { stripe: Stripe; checkout: Checkout }): Promise<Omit<StartedCheckout, "bindingToken">> {
  const { stripe, checkout, db } = deps;
  if (checkout.paymentIntentId) {
    const id = checkout.paymentIntentId;
    const existing = await stripeCall(() => stripe.paymentIntents.retrieve(id));
    if (OPEN_INTENT.has(existing.status) && existing.client_secret) {
      const kept = { clientSecret: existing.client_secret, paymentIntentId: existing.id };
      if (!PAYABLE_INTENT.has(existing.status) || (await priceInForce(db, checkout))) return kept;
      const voided = await voidOpenCheckouts(db, eq(pendingCheckouts.id, checkout.id));
      const [outcome] = await settleVoided({ db, stripe }, voided, { honour: true });
      if (outcome === "honoured") return kept;
      throw new AppError("CONFLICT", PRICE_CHANGED);
    }
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const price = await readPrice(db);
    const amount = toMinorUnits(price.earlyAccessPrice, price.currency);
    if (amount === null || amount < 1)
      throw new AppError("UNAVAILABLE", "The Early Access price is not set correctly. Please contact support.");
    const currency = price.currency.toLowerCase();
    const previous = checkout.paymentIntentId ?? "none";
    const intent = await stripeCall(() =>
      stripe.paymentIntents.create(
        {
          amount,
          currency,
          automatic_payment_methods: { enabled: true },
          description: "Early Access (one-time payment)",
          metadata: { pendingCheckoutId: String(checkout.id), kind: checkout.kind },
        },
        { idempotencyKey: `early-access-${checkout.id}-${checkout.bindingNonce}-${previous}-${amount}${currency}` },
      ),
    );
    if (!intent.client_secret) throw new AppError("BAD_GATEWAY", "Stripe answered without a client secret. Please try again.");
    const record = async (tx: Db) => {
      const [recorded] = await tx
        .update(pendingCheckouts)
        .set({ paymentIntentId: intent.id, amountMinor: intent.amount, currency: intent.currency, updatedAt: new Date() })
        .where(
          and(
            eq(pendingCheckouts.id, checkout.id),
            eq(pendingCheckouts.status, "pending"),
            checkout.paymentIntentId
              ? or(eq(pendingCheckouts.paymentIntentId, checkout.paymentIntentId), eq(pendingCheckouts.paymentIntentId, intent.id))
              : isNull(pendingCheckouts.paymentIntentId),
          ),
        )
        .returning({ id: pendingCheckouts.id });
      if (recorded) return;
      // Not recorded: a parallel call recorded its own (the same intent, by the idempotency key), or the checkout closed.
      const [now] = await tx.select({ status: pendingCheckouts.status }).from(pendingCheckouts).where(eq(pendingCheckouts.id, checkout.id));
      if (now?.status === "voided") throw new AppError("CONFLICT", PRICE_CHANGED);
      if (now?.status !== "pending") throw new AppError("CONFLICT", CHECKOUT_ENDED);
    };
    let recorded: boolean;
    try {
      recorded = await recordIntentAtCurrentPrice(db, { amountMinor: intent.amount, currency: intent.currency }, record);
    } catch (error) {
      void stripe.paymentIntents.cancel(intent.id).catch(() => undefined);
      throw error;
    }
    if (recorded) return { clientSecret: intent.client_secret, paymentIntentId: intent.id };
    // The price changed while the intent was made: it is never handed out.
    void stripe.paymentIntents.cancel(intent.id).catch(() => undefined);
  }
  throw new AppError("CONFLICT", PRICE_CHANGED);
}

/** Whether the price recorded with the checkout's intent is the price in force. */
async function priceInForce(db: Db, checkout: Checkout): Promise<boolean> {
  const price = await readPrice(db);
  return (
    toMinorUnits(price.earlyAccessPrice, price.currency) === checkout.amountMinor && price.currency.toLowerCase() === checkout.currency
  );
}

/**
 * GET /api/early-access/checkout: the state of the checkout the page shows (this browser's registration, or
 * this account's upgrade, by its intent), read every minute while the page is open; each read renews a
 * registration's hold. Voided by a price change: 409 with PRICE_CHANGED.
 */
export async function readCheckoutStatus(deps: {
  db: Db;
  secrets: SecretBox;
  who: Who | null;
  token: string | null;
  paymentIntentId: string;
}): Promise<CheckoutStatus> {
  const { db, who } = deps;
  const [checkout] = await db
    .select()
    .from(pendingCheckouts)
    .where(
      and(
        eq(pendingCheckouts.paymentIntentId, deps.paymentIntentId),
        who ? and(eq(pendingCheckouts.kind, "upgrade"), eq(pendingCheckouts.userId, who.id)) : eq(pendingCheckouts.kind, "register"),
      ),
    )
    .limit(1);
  if (!checkout) throw who ? new AppError("NOT_FOUND", PAYMENT_NOT_FOUND) : new AppError("BAD_REQUEST", MISSING_REGISTRATION);
  if (!who && !tokenBindsCheckout(deps.secrets, deps.token, checkout)) throw new AppError("BAD_REQUEST", MISSING_REGISTRATION);
  const holdIdleSeconds = CHECKOUT_HOLD_IDLE_MS / 1000;
  switch (checkout.status) {
    case "pending":
      await touchHold(db, checkout.id);
      return { state: "open", holdIdleSeconds };
    case "completed":
      return { state: "completed", holdIdleSeconds };
    case "voided":
      throw new AppError("CONFLICT", PRICE_CHANGED);
    case "attention":
      throw new AppError("CONFLICT", NEEDS_SUPPORT);
    default:
      throw new AppError("CONFLICT", CHECKOUT_ENDED);
  }
}
