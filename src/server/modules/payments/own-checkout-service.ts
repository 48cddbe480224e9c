import { and, eq } from "drizzle-orm";
import { CHECKOUT_ALREADY_PAID, type OwnRegistration } from "../../../shared/contracts/payments.js";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { tokenBindsCheckout, tokenCheckoutId } from "./checkout-binding.js";
import type { StripeGateway } from "./gateway.js";
import { stripeCall } from "./stripe-errors.js";

/** The `problem` of a checkout its buyer cancelled from its page (status `abandoned`). */
export const CANCELLED_BY_BUYER = "The buyer cancelled the checkout.";

/** The registration checkout this browser's cookie binds (any status), or null: never another browser's. */
async function boundRegistration(deps: { db: Db; secrets: SecretBox; token: string | null }) {
  const id = tokenCheckoutId(deps.token);
  if (!id) return null;
  const [row] = await deps.db
    .select()
    .from(pendingCheckouts)
    .where(and(eq(pendingCheckouts.id, id), eq(pendingCheckouts.kind, "register")))
    .limit(1);
  return row && tokenBindsCheckout(deps.secrets, deps.token, row) ? row : null;
}

/**
 * GET /api/early-access/registration: the display data of the registration this browser started (its
 * cookie), so its page can come back after the tab was closed (`open`) or fill the Register tab in again
 * (ended). Never the password; null for a browser without the checkout's cookie.
 */
export async function readOwnRegistration(deps: { db: Db; secrets: SecretBox; token: string | null }): Promise<OwnRegistration> {
  const row = await boundRegistration(deps);
  if (!row || row.status === "completed") return { registration: null };
  return { registration: { username: row.username, name: row.name ?? "", email: row.email ?? "", open: row.status === "pending" } };
}

/**
 * POST /api/early-access/checkout/cancel: the buyer leaves the checkout. Its intent is cancelled at Stripe
 * first (so it can never be paid), then the checkout ends and its username and email are free at once. A
 * payment that already went through (or is processing) is not cancelled: 409, the page finishes it.
 * Nothing bound to this browser: nothing to do.
 */
export async function cancelRegistrationCheckout(deps: {
  db: Db;
  secrets: SecretBox;
  gateway: StripeGateway;
  token: string | null;
}): Promise<void> {
  const row = await boundRegistration(deps);
  if (row?.status !== "pending") return;
  const intentId = row.paymentIntentId;
  if (intentId) {
    const { stripe } = await deps.gateway.stripe();
    const intent = await stripeCall(() => stripe.paymentIntents.retrieve(intentId));
    if (intent.status === "succeeded" || intent.status === "processing") throw new AppError("CONFLICT", CHECKOUT_ALREADY_PAID);
    if (intent.status !== "canceled") {
      try {
        await stripeCall(() => stripe.paymentIntents.cancel(intentId));
      } catch (error) {
        // Paid in the meantime: Stripe refuses the cancel, and the payment finishes as usual.
        const now = await stripeCall(() => stripe.paymentIntents.retrieve(intentId));
        if (now.status === "succeeded" || now.status === "processing") throw new AppError("CONFLICT", CHECKOUT_ALREADY_PAID);
        if (now.status !== "canceled") throw error;
      }
    }
  }
  await deps.db
    .update(pendingCheckouts)
    .set({ status: "abandoned", problem: CANCELLED_BY_BUYER, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, row.id), eq(pendingCheckouts.status, "pending")));
}
