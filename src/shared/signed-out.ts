/**
 * Why a page that was signed in went to sign-in (issue 29). The server names the reason in a 401's body
 * (`reason`, contracts/errors.ts) only when it knows it: the session belonged to an account an admin disabled.
 * Zod-free, so the sign-in screens' small chunks can say it.
 */
export const SIGNED_OUT_REASONS = ["account_disabled", "session_ended"] as const;
export type SignedOutReason = (typeof SIGNED_OUT_REASONS)[number];

/** What a disabled account is told: at sign-in (403) and when its open page's session is refused (401). */
export const ACCOUNT_DISABLED_MESSAGE = "This account has been disabled. Contact an administrator.";
/** Any other 401 on a page that was signed in (signed out elsewhere, expired, password changed). */
export const SESSION_ENDED_MESSAGE = "Your session ended. Please sign in again.";

export const SIGNED_OUT_MESSAGES: Record<SignedOutReason, string> = {
  account_disabled: ACCOUNT_DISABLED_MESSAGE,
  session_ended: SESSION_ENDED_MESSAGE,
};
