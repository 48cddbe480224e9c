import { z } from "zod";
import { endpoint } from "./endpoint.js";
import { confirmed, confirmPasswordField, emailField, strongPasswordField } from "./fields.js";

/** The one answer to a reset request, whether or not the account exists (nothing is revealed). */
export const FORGOT_PASSWORD_SENT = "If an account exists for that email, we've sent a link to reset the password.";
export const RESET_LINK_INVALID = "This reset link is invalid or has expired. Please ask for a new one.";
/** What the reset page says at once when its link can no longer be used (issue 29). */
export const RESET_LINK_USED = "This reset link has already been used. Please ask for a new one.";
export const RESET_LINK_EXPIRED = "This reset link has expired. Please ask for a new one.";
export const PASSWORD_RESET_DONE = "Your password has been changed. You can now sign in with your new password.";

/** A reset link lives one hour. */
export const RESET_TOKEN_TTL_MINUTES = 60;

export const forgotPasswordBodySchema = z.object({ email: emailField });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

// 32 random bytes in base64url are 43 characters; anything else cannot be a token we issued.
export const resetTokenField = z
  .string({ error: RESET_LINK_INVALID })
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, RESET_LINK_INVALID);

/** The registration rules for the new password, and the same "Passwords do not match". */
export const resetPasswordBodySchema = confirmed(
  z.object({ token: resetTokenField, password: strongPasswordField, confirmPassword: confirmPasswordField }),
);
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

/**
 * POST /api/reset-password/check: what the link is, and nothing else (never whose it is). `invalid` is a token
 * we never issued, one replaced by a newer link, or one of an account disabled since.
 */
export const RESET_LINK_STATES = ["valid", "used", "expired", "invalid"] as const;
export type ResetLinkState = (typeof RESET_LINK_STATES)[number];
export const resetLinkCheckBodySchema = z.object({ token: resetTokenField });
export const resetLinkCheckSchema = z.object({ state: z.enum(RESET_LINK_STATES) });

const messageSchema = z.object({ message: z.string() });

export const passwordResetApi = {
  forgot: endpoint({
    method: "POST",
    path: "/api/forgot-password",
    access: "public",
    body: forgotPasswordBodySchema,
    response: messageSchema,
  }),
  /** The token in the body, not the path, so it stays out of access logs. */
  check: endpoint({
    method: "POST",
    path: "/api/reset-password/check",
    access: "public",
    body: resetLinkCheckBodySchema,
    response: resetLinkCheckSchema,
  }),
  reset: endpoint({
    method: "POST",
    path: "/api/reset-password",
    access: "public",
    body: resetPasswordBodySchema,
    response: messageSchema,
  }),
};
