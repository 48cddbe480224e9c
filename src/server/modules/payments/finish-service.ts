import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { pendingCheckouts } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Who } from "../../lib/who.js";
import { findUserById } from "../auth/auth-service.js";
import { tokenBindsCheckout } from "./checkout-binding.js";
import { type CompleteDeps, completeCheckout, NEEDS_SUPPORT, PAID_AFTER_PRICE_CHANGE } from "./complete-checkout.js";
import type { StripeGateway } from "./gateway.js";
import { PAID_AFTER_VOID } from "./price-change.js";
import { PAYMENT_NOT_FOUND } from "./stripe-errors.js";

export const NOT_THIS_BROWSER = "This payment does not belong to the checkout of this browser.";
export const ALREADY_SIGNED_IN_WITH_IT = "This checkout is finished: sign in with your username and password.";

type Deps = Omit<CompleteDeps, "stripe"> & { db: Db; gateway: StripeGateway; paymentIntentId: string };

async function stripeFor(gateway: StripeGateway) {
  const stripe = await gateway.stripeIfConfigured();
  if (!stripe) throw new AppError("UNAVAILABLE", "Stripe's secret key is missing: payments cannot be checked. Please contact support.");
  return stripe;
}

/**
 * POST /api/register with `planType: "earlyAccess"`: only the browser holding the checkout's cookie may
 * finish it and be signed in, once (also when the webhook created the account first). Anyone else gets
 * 403 and no session; a second sign-in with the same cookie gets 409.
 */
export async function finishPaidRegistration(deps: Deps & { secrets: SecretBox; token: string | null }): Promise<Who> {
  const { db } = deps;
  const [checkout] = await db
    .select()
    .from(pendingCheckouts)
    .where(and(eq(pendingCheckouts.paymentIntentId, deps.paymentIntentId), eq(pendingCheckouts.kind, "register")))
    .limit(1);
  if (!checkout) {
    // No checkout uses this intent now. If it is an intent of ours that was paid anyway (its checkout changed
    // details or was replaced), completeCheckout keeps the payment for an admin and says to contact support.
    await completeCheckout({ ...deps, stripe: await stripeFor(deps.gateway) });
    throw new AppError("FORBIDDEN", NOT_THIS_BROWSER);
  }
  // Paid but kept for an admin (an earlier call found it could not finish): say so to whoever asks, sign nobody in.
  if (checkout.status === "attention")
    throw new AppError("CONFLICT", checkout.problem === PAID_AFTER_VOID ? PAID_AFTER_PRICE_CHANGE : NEEDS_SUPPORT);
  if (!tokenBindsCheckout(deps.secrets, deps.token, checkout)) throw new AppError("FORBIDDEN", NOT_THIS_BROWSER);
  if (checkout.claimedAt) throw new AppError("CONFLICT", ALREADY_SIGNED_IN_WITH_IT);
  const { userId } = await completeCheckout({ ...deps, stripe: await stripeFor(deps.gateway) });
  const [claimed] = await db
    .update(pendingCheckouts)
    .set({ claimedAt: new Date() })
    .where(and(eq(pendingCheckouts.id, checkout.id), isNull(pendingCheckouts.claimedAt)))
    .returning({ id: pendingCheckouts.id });
  if (!claimed) throw new AppError("CONFLICT", ALREADY_SIGNED_IN_WITH_IT);
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("CONFLICT", ALREADY_SIGNED_IN_WITH_IT);
  return user;
}

/** POST /api/early-access/complete: the signed-in account's own upgrade checkout, and nobody else's (404). */
export async function finishUpgrade(deps: Deps & { who: Who }): Promise<Who> {
  const { db, who } = deps;
  const [checkout] = await db
    .select({ id: pendingCheckouts.id })
    .from(pendingCheckouts)
    .where(
      and(
        eq(pendingCheckouts.paymentIntentId, deps.paymentIntentId),
        eq(pendingCheckouts.kind, "upgrade"),
        eq(pendingCheckouts.userId, who.id),
      ),
    )
    .limit(1);
  if (!checkout) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  await completeCheckout({ ...deps, stripe: await stripeFor(deps.gateway) });
  const user = await findUserById(db, who.id);
  if (!user) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
  return user;
}
