import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { z } from "zod";
import { ALREADY_EARLY_ACCESS, type checkoutRegistrationSchema, MISSING_REGISTRATION } from "../../../shared/contracts/payments.js";
import { toMinorUnits } from "../../../shared/money.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";
import { hashPassword, verifyPassword } from "../../lib/passwords.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Who } from "../../lib/who.js";
import { assertRegistrationOpen, CHECKOUT_HOLD_MS, EMAIL_HELD, findNameConflict } from "../auth/service.js";
import { bindingToken, newBindingNonce, tokenBindsCheckout, tokenCheckoutId } from "./checkout-binding.js";
import { FREE_INSTEAD, REPLACED_CHECKOUT } from "./complete-checkout.js";
import type { StripeGateway } from "./gateway.js";
import { readPrice } from "./settings-service.js";
import { stripeCall } from "./stripe-errors.js";

type Checkout = typeof pendingCheckouts.$inferSelect;
type Deps = { db: Db; secrets: SecretBox; gateway: StripeGateway };

export interface StartedCheckout {
  clientSecret: string;
  paymentIntentId: string;
  /** The binding cookie's value (a registration checkout), to set on the answer. */
  bindingToken: string | null;
}

export const PAYMENT_IN_PROGRESS = "A payment for this email is being processed. Please wait a few minutes, or contact support.";

/** Intents that can still be paid (or are being paid): the checkout keeps them. */
const OPEN_INTENT = new Set(["requires_payment_method", "requires_confirmation", "requires_action", "processing", "succeeded"]);

const CLAIMS_ALLOWED = 5;
const CLAIM_WINDOW_MS = 15 * 60_000;

/**
 * Step 2 with Early Access (signed out): the form is checked with the registration rules, the name must
 * be free, and the registration is saved as a pending checkout (password hashed at once; nothing usable
 * yet) with a PaymentIntent for the price of the moment.
 * - The same browser (its cookie), or whoever proves the same email's password (a double submit, another
 *   tab; 5 tries per 15 minutes), continues that checkout: the same details keep the same intent; changed
 *   details get a new binding and a new intent, so a tab open elsewhere cannot pay for details it did not see.
 * - A checkout holds its username and email for 30 minutes from its start; after that someone else with
 *   that email replaces it (unless its payment went through or is processing).
 */
export async function startRegistrationCheckout(
  deps: Deps & { counters: CounterStore; input: z.output<typeof checkoutRegistrationSchema>; token: string | null },
): Promise<StartedCheckout> {
  const { db, input } = deps;
  const { stripe } = await deps.gateway.stripe();
  await assertRegistrationOpen(db);
  const conflict = await findNameConflict(db, input, { checkouts: "otherEmails" });
  if (conflict) throw conflict;
  const passwordHash = await hashPassword(input.password);
  const account = { username: input.username, name: input.name, email: input.email.toLowerCase(), passwordHash };
  const sameDetails = (row: Checkout) => row.username === account.username && row.name === account.name && row.email === account.email;

  const cancelled: string[] = [];
  let checkout: Checkout | null = null;
  // Two parallel first submits: the second waits on the open-email index, then finds the first's row.
  for (let attempt = 0; attempt < 2 && !checkout; attempt++) {
    checkout = await db.transaction(async (tx) => {
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
        } else if (other.createdAt.getTime() > Date.now() - CHECKOUT_HOLD_MS) {
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
      if (row) {
        if (!passwordMatches && row.passwordHash) passwordMatches = await verifyPassword(row.passwordHash, input.password);
        if (passwordMatches && sameDetails(row)) return row;
        if (row.paymentIntentId) cancelled.push(row.paymentIntentId);
        const [updated] = await tx
          .update(pendingCheckouts)
          .set({
            ...account,
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
      const [inserted] = await tx
        .insert(pendingCheckouts)
        .values({ kind: "register", ...account, bindingNonce: newBindingNonce() })
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
  const state = await counters.hit(`checkout-claim:${(checkout.email ?? "").toLowerCase()}`, CLAIM_WINDOW_MS);
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

/** The checkout page of a signed-out visitor: the checkout this browser started, and its intent. */
export async function resumeRegistrationCheckout(deps: Deps & { token: string | null }): Promise<StartedCheckout> {
  const { stripe } = await deps.gateway.stripe();
  const id = tokenCheckoutId(deps.token);
  const [checkout] = id
    ? await deps.db
        .select()
        .from(pendingCheckouts)
        .where(and(eq(pendingCheckouts.id, id), eq(pendingCheckouts.kind, "register"), eq(pendingCheckouts.status, "pending")))
        .limit(1)
    : [];
  if (!checkout || !tokenBindsCheckout(deps.secrets, deps.token, checkout)) {
    throw new AppError("BAD_REQUEST", MISSING_REGISTRATION);
  }
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
 * The checkout's PaymentIntent: the one it has while that can still be paid (its recorded price stays,
 * whatever the price is now), else a new one at today's price. The idempotency key names the checkout,
 * its binding and the intent it replaces, so parallel calls get one intent.
 */
async function ensureIntent(deps: Deps & { stripe: Stripe; checkout: Checkout }): Promise<Omit<StartedCheckout, "bindingToken">> {
  const { stripe, checkout, db } = deps;
  if (checkout.paymentIntentId) {
    const id = checkout.paymentIntentId;
    const existing = await stripeCall(() => stripe.paymentIntents.retrieve(id));
    if (OPEN_INTENT.has(existing.status) && existing.client_secret)
      return { clientSecret: existing.client_secret, paymentIntentId: existing.id };
  }
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
  await db
    .update(pendingCheckouts)
    .set({ paymentIntentId: intent.id, amountMinor: intent.amount, currency: intent.currency, updatedAt: new Date() })
    .where(
      and(
        eq(pendingCheckouts.id, checkout.id),
        checkout.paymentIntentId
          ? or(eq(pendingCheckouts.paymentIntentId, checkout.paymentIntentId), eq(pendingCheckouts.paymentIntentId, intent.id))
          : isNull(pendingCheckouts.paymentIntentId),
      ),
    );
  return { clientSecret: intent.client_secret, paymentIntentId: intent.id };
}
