/**
 * Why a page that was signed in went to sign-in (issue 29; every path: decision 061). The server names the reason in
 * a 401's body (`reason`, contracts/errors.ts) and in the session probe's answer (`ended`, contracts/user.ts) when it
 * knows it: the session was ended by something other than its own browser. Zod-free, so the sign-in screens' small
 * chunks can say it.
 */
export const SESSION_END_REASONS = ["account_disabled", "account_deleted", "password_changed", "signed_out_by_admin"] as const;
/** Why a session was ended for its browser (stored beside the ended session's id on the server). */
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export const SIGNED_OUT_REASONS = [...SESSION_END_REASONS, "session_ended"] as const;
export type SignedOutReason = (typeof SIGNED_OUT_REASONS)[number];

/** What a disabled account is told: at sign-in (403) and when its open page's session is refused (401). */
export const ACCOUNT_DISABLED_MESSAGE = "This account has been disabled. Contact an administrator.";
/** Any other 401 on a page that was signed in (expired, signed out in another tab, a reason the server no longer keeps). */
export const SESSION_ENDED_MESSAGE = "Your session ended. Please sign in again.";

export const SIGNED_OUT_MESSAGES: Record<SignedOutReason, string> = {
  account_disabled: ACCOUNT_DISABLED_MESSAGE,
  account_deleted: "This account has been deleted. Contact an administrator if you think this is a mistake.",
  password_changed: "Your password was changed, so you were signed out. Sign in with the new password.",
  signed_out_by_admin: "An administrator reset your password and signed you out. Sign in with the new password.",
  session_ended: SESSION_ENDED_MESSAGE,
};

/** Whether a value read back (a 401's body, storage) is one of the reasons. */
export function isSignedOutReason(value: unknown): value is SignedOutReason {
  return typeof value === "string" && (SIGNED_OUT_REASONS as readonly string[]).includes(value);
}

/** The reasons shown as a refusal (red) rather than a notice. */
export function isRefusedAccount(reason: SignedOutReason): boolean {
  return reason === "account_disabled" || reason === "account_deleted";
}
