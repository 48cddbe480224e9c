import type { PublicUser } from "../../../shared/contracts/auth.js";
import { paymentsApi } from "../../../shared/contracts/payments.js";
import { call } from "../../lib/api-client.js";

/**
 * POST /api/create-payment-intent with no body: the checkout this browser started at step 2 (signed out,
 * found by its httpOnly cookie), or the upgrade checkout of the signed-in free user. The same intent comes
 * back while it can still be paid.
 */
export function openCheckout() {
  return call(paymentsApi.createPaymentIntent, { body: {} });
}

/** POST /api/early-access/complete: the end of a signed-in free user's checkout; answers the upgraded user. */
export function completeUpgrade(paymentIntentId: string): Promise<PublicUser> {
  return call(paymentsApi.completeUpgrade, { body: { paymentIntentId } });
}
