import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authApi, type LoginBody, type PublicUser } from "../../../shared/contracts/auth.js";
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
