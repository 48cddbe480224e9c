import type { PublicUser } from "../../../shared/contracts/auth.js";
import { type CheckoutStatus, paymentsApi } from "../../../shared/contracts/payments.js";
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

/**
 * GET /api/early-access/checkout: the state of the checkout the page shows, asked every minute while it is
 * open (it keeps a registration's username and email held; 409 once a price change voided it).
 */
export function readCheckout(paymentIntentId: string): Promise<CheckoutStatus> {
  return call(paymentsApi.checkoutStatus, { query: { paymentIntentId } });
}

/** GET /api/early-access/registration: the registration this browser started (display data), after its tab was closed. */
export function readOwnRegistration() {
  return call(paymentsApi.ownRegistration, {});
}

/** POST /api/early-access/checkout/cancel: this browser's checkout ends; its username and email are free at once. */
export function cancelCheckout() {
  return call(paymentsApi.cancelCheckout, {});
}
