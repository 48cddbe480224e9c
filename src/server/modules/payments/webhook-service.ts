import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { stripeEvents } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { type CompleteDeps, completeCheckout } from "./complete-checkout.js";
import type { StripeGateway } from "./gateway.js";

export const WEBHOOK_NOT_SET_UP = "Stripe webhooks are not set up: STRIPE_WEBHOOK_SECRET is missing.";
export const BAD_SIGNATURE = "Invalid Stripe signature.";

/**
 * POST /api/stripe/webhook. The signature is checked on the raw bytes; an event already handled (by id)
 * answers 200 and does nothing twice. `payment_intent.succeeded` finishes the checkout even when the
 * visitor closed the tab; a checkout that cannot finish is kept for an admin and the event still counts as
 * handled. A failure on our side (database, Stripe unreachable) answers 5xx so that Stripe sends it again.
 */
export async function receiveWebhook(
  deps: Omit<CompleteDeps, "stripe"> & {
    db: Db;
    gateway: StripeGateway;
    rawBody: Buffer;
    signature: string | undefined;
    warn: (message: string) => void;
  },
): Promise<{ received: boolean }> {
  const keys = await deps.gateway.keys();
  if (!keys.webhookSecret) throw new AppError("BAD_REQUEST", WEBHOOK_NOT_SET_UP);
  if (!deps.signature || deps.signature.length > 2000) throw new AppError("BAD_REQUEST", BAD_SIGNATURE);
  let event: Awaited<ReturnType<StripeGateway["verifyWebhook"]>>;
  try {
    event = await deps.gateway.verifyWebhook(deps.rawBody, deps.signature, keys.webhookSecret);
  } catch {
    throw new AppError("BAD_REQUEST", BAD_SIGNATURE);
  }
  // Signed, but not an event we can read (only Stripe, or someone holding the secret, gets this far).
  const type: unknown = event.type;
  const intentId: unknown =
    typeof type === "string" && type.startsWith("payment_intent.") ? (event.data?.object as { id?: unknown } | undefined)?.id : "none";
  if (
    typeof type !== "string" ||
    type.length > 200 ||
    typeof event.id !== "string" ||
    !/^evt_[A-Za-z0-9_]{1,200}$/.test(event.id) ||
    typeof intentId !== "string" ||
    !/^(pi_[A-Za-z0-9_]{1,200}|none)$/.test(intentId)
  ) {
    throw new AppError("BAD_REQUEST", "This Stripe event cannot be read.");
  }
  const [seen] = await deps.db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return { received: true };

  if (event.type === "payment_intent.succeeded") {
    const stripe = await deps.gateway.stripeIfConfigured();
    if (!stripe)
      throw new AppError("UNAVAILABLE", "Stripe's secret key is missing: the payment will be finished when Stripe sends this event again.");
    try {
      await completeCheckout({ ...deps, stripe, paymentIntentId: intentId });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      deps.warn(`Stripe event ${event.id} (${event.type}) did not finish a checkout: ${error.message}`);
    }
  }
  await deps.db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
  return { received: true };
}
