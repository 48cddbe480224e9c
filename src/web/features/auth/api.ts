import { authApi, type PublicUser } from "../../../shared/contracts/auth.js";
import { type CheckoutRegistration, paymentsApi } from "../../../shared/contracts/payments.js";
import { call } from "../../lib/api-client.js";
import { useAction } from "./use-action.js";

type Callbacks<Output> = { onSuccess?: (output: Output) => void; onError?: (error: Error) => void };

/**
 * POST /api/register for a free account from the Register tab, with only the fields the call takes
 * (confirmPassword and acceptTerms are dropped). The end of a paid checkout registers in
 * `domain/register-account.ts`. Loaded with the Register tab, never on /auth's first screen.
 */
export function useRegisterFree(callbacks: Callbacks<PublicUser> = {}) {
  return useAction(
    (form: CheckoutRegistration) =>
      call(authApi.register, {
        body: { username: form.username, name: form.name, email: form.email, password: form.password, planType: "free" },
      }),
    callbacks,
  );
}

/**
 * POST /api/create-payment-intent with the Register form (step 2, Early Access): the server checks the
 * form with the registration rules, keeps the registration until the payment succeeds (bound to this
 * browser by an httpOnly cookie) and answers the checkout's PaymentIntent.
 */
export function useStartCheckout(callbacks: Callbacks<{ clientSecret: string; paymentIntentId: string }> = {}) {
  return useAction(
    (form: CheckoutRegistration) =>
      call(paymentsApi.createPaymentIntent, {
        body: {
          username: form.username,
          name: form.name,
          email: form.email,
          password: form.password,
          confirmPassword: form.confirmPassword,
          acceptTerms: form.acceptTerms,
        },
      }),
    callbacks,
  );
}
