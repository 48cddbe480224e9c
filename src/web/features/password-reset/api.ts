import { useMutation, useQuery } from "@tanstack/react-query";
import { type ForgotPasswordBody, passwordResetApi, type ResetPasswordBody } from "../../../shared/contracts/password-reset.js";
import { call, endpointKey } from "../../lib/api-client.js";

/** POST /api/forgot-password: the same answer whether or not the account exists. */
export function useForgotPassword() {
  return useMutation({ mutationFn: (body: ForgotPasswordBody) => call(passwordResetApi.forgot, { body }) });
}

/** POST /api/reset-password: spends the link's token and sets the new password. */
export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetPasswordBody) => call(passwordResetApi.reset, { body }) });
}

/**
 * POST /api/reset-password/check when the page opens: valid, used, expired or invalid. Off for a token that
 * cannot be one of ours (the page says so without asking).
 */
export function useResetLinkState(token: string, enabled: boolean) {
  return useQuery({
    queryKey: [...endpointKey(passwordResetApi.check), token],
    queryFn: async () => (await call(passwordResetApi.check, { body: { token } })).state,
    enabled,
    gcTime: 0,
  });
}
