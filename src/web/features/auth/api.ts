import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authApi, type LoginBody, type PublicUser } from "../../../shared/contracts/auth.js";
import { type CheckoutRegistration, paymentsApi } from "../../../shared/contracts/payments.js";
import { signIn } from "../../domain/session.js";
import { call } from "../../lib/api-client.js";

type Callbacks = { onSuccess?: (user: PublicUser) => void; onError?: (error: Error) => void };

/** POST /api/login. The route guard sends the signed-in user on to ?next or /. */
export function useLogin({ onSuccess, onError }: Callbacks = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => call(authApi.login, { body }),
    onSuccess: (user) => {
      onSuccess?.(user);
      signIn(client, user);
    },
    onError,
  });
}

/**
 * POST /api/create-payment-intent with the Register form (step 2, Early Access): the server checks the
 * form with the registration rules, keeps the registration until the payment succeeds (bound to this
 * browser by an httpOnly cookie) and answers the checkout's PaymentIntent.
 */
export function useStartCheckout({
  onSuccess,
  onError,
}: {
  onSuccess?: (result: { clientSecret: string; paymentIntentId: string }) => void;
  onError?: (error: Error) => void;
}) {
  return useMutation({
    mutationFn: (form: CheckoutRegistration) =>
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
    onSuccess,
    onError,
  });
}
