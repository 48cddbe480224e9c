import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authApi, type PublicUser, type RegisterBody } from "../../shared/contracts/auth.js";
import { call } from "../lib/api-client.js";
import { signIn } from "./session.js";

type Callbacks = { onSuccess?: (user: PublicUser) => void; onError?: (error: Error) => void };

/**
 * POST /api/register with only the fields the call takes (confirmPassword and
 * acceptTerms are dropped here). Success signs the person in everywhere; the
 * route guard then moves them on. Callbacks run before that, so they always fire.
 * Used by the Register tab and by the checkout's "Continue with the Free plan".
 */
export function useRegisterAccount({ onSuccess, onError }: Callbacks = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ username, name, email, password, planType }: RegisterBody) =>
      call(authApi.register, { body: { username, name, email, password, planType } }),
    onSuccess: (user) => {
      onSuccess?.(user);
      signIn(client, user);
    },
    onError,
  });
}
