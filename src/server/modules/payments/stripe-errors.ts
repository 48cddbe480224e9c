import { PAYMENTS_UNAVAILABLE } from "../../../shared/contracts/payments.js";
import { AppError } from "../../lib/app-error.js";

export const STRIPE_UNREACHABLE = "Stripe could not be reached. Nothing was charged twice: please try again in a moment.";
export const PAYMENT_NOT_FOUND = "We couldn't find this payment.";

/**
 * Runs one Stripe call and turns its failures into clear answers: a refused key is a configuration
 * problem (503, the product's text), an unknown intent 404, Stripe down or slow 502. Stripe's own message is
 * kept for the logs by the error handler, never a key.
 */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // By the error's `type` (the SDK's class name), so this file does not load the SDK.
    const raw: unknown = error instanceof Error ? (error as Error & { type?: unknown }).type : undefined;
    const type = typeof raw === "string" ? raw : "";
    if (type === "StripeAuthenticationError" || type === "StripePermissionError") throw new AppError("UNAVAILABLE", PAYMENTS_UNAVAILABLE);
    if (type === "StripeInvalidRequestError" && (error as { code?: string }).code === "resource_missing") {
      throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
    }
    if (type.startsWith("Stripe")) throw new AppError("BAD_GATEWAY", STRIPE_UNREACHABLE);
    throw error;
  }
}
