import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authApi, type PublicUser, type RegisterBody } from "../../shared/contracts/auth.js";
import { call } from "../lib/api-client.js";
import { signIn } from "./session.js";

type Callbacks = { onSuccess?: (user: PublicUser) => void; onError?: (error: Error) => void };

/**
 * POST /api/register with only the fields the call takes (confirmPassword and acceptTerms are dropped
 * here): a free account from the Register tab, or the end of a paid checkout (`{ planType: "earlyAccess",
 * paymentIntentId }`, the account fields were saved on the server when the checkout started). Success signs
 * the person in everywhere; the route guard then moves them on. Callbacks run before that, so they always fire.
 */
export function useRegisterAccount({ onSuccess, onError }: Callbacks = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      call(authApi.register, {
        body:
          body.planType === "earlyAccess"
            ? { planType: "earlyAccess", paymentIntentId: body.paymentIntentId }
            : { username: body.username, name: body.name, email: body.email, password: body.password, planType: "free" },
      }),
    onSuccess: (user) => {
      onSuccess?.(user);
      signIn(client, user);
    },
    onError,
  });
}
