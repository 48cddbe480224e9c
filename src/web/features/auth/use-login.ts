import type { authApi, LoginBody } from "../../../shared/contracts/auth.js";
import { typedAddress } from "../../../shared/contracts/endpoint.js";
import { firstScreenCalls } from "../../../shared/contracts/first-screen-reads.js";
import { displayName } from "../../domain/display-name.js";
import { call, errorMessage } from "../../lib/api-client.js";
import { notify } from "../../lib/notify.js";
import { useAuthHost } from "./auth-host.js";
import { useAction } from "./use-action.js";

/** POST /api/login by its address (`authApi.login`; it does not compile if they part): /auth's first screen loads no schemas. */
const loginCall = typedAddress<typeof authApi.login>(firstScreenCalls.login);

/**
 * POST /api/login; success hands the user to the app around the form, failure says why in a toast (docs/product.md, Accounts) and to
 * `onFailed`, so the form says it too, where it stays until the next try (decision 060).
 */
export function useLogin(onFailed?: (message: string) => void) {
  const host = useAuthHost();
  return useAction((body: LoginBody) => call(loginCall, { body }), {
    onSuccess: (user) => host.signedIn(user, { title: "Login successful", description: `Welcome back, ${displayName(user)}` }),
    onError: (error) => {
      notify.error("Login failed", errorMessage(error));
      onFailed?.(errorMessage(error));
    },
  });
}
