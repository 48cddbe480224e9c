import { useMutation } from "@tanstack/react-query";
import { type ForgotPasswordBody, passwordResetApi, type ResetPasswordBody } from "../../../shared/contracts/password-reset.js";
import { call } from "../../lib/api-client.js";

/** POST /api/forgot-password: the same answer whether or not the account exists. */
export function useForgotPassword() {
  return useMutation({ mutationFn: (body: ForgotPasswordBody) => call(passwordResetApi.forgot, { body }) });
}

/** POST /api/reset-password: spends the link's token and sets the new password. */
export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetPasswordBody) => call(passwordResetApi.reset, { body }) });
}
