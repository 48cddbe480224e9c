import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for the publishable key the server names (GET /api/payment-settings: never a build-time
 * variable, so an admin can set the key without a rebuild). The `pure` entry injects the script only
 * here, on the checkout, never at import; a failed load is forgotten so Retry loads it again.
 */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey).catch((error: unknown) => {
      loaded.delete(publishableKey);
      throw error;
    });
    loaded.set(publishableKey, promise);
  }
  return promise;
}
