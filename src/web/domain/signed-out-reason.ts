import { isSignedOutReason, type SignedOutReason } from "../../shared/signed-out.js";

/** sessionStorage key of why this tab's page went to sign-in (it survives the small sign-in app's reload). */
const KEY = "signed-out-reason";

/** Remembers why the session ended, for the sign-in screen to say (issue 29). */
export function rememberSignedOutReason(reason: SignedOutReason): void {
  try {
    sessionStorage.setItem(KEY, reason);
  } catch {
    // Storage refused: the page still goes to sign-in, without the why.
  }
}

/** Why the last signed-in page of this tab went to sign-in (kept until the next sign-in is tried). */
export function readSignedOutReason(): SignedOutReason | null {
  try {
    const reason = sessionStorage.getItem(KEY);
    return isSignedOutReason(reason) ? reason : null;
  } catch {
    return null;
  }
}

/** A sign-in was tried: the why is no longer news. */
export function forgetSignedOutReason(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
