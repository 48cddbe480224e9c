import type { QueryClient } from "@tanstack/react-query";
import { isSignedOutReason } from "../../shared/signed-out.js";
import { currentUserQuery, signOut } from "../domain/session.js";
import { rememberSignedOutReason } from "../domain/signed-out-reason.js";
import { onUnauthorized } from "../lib/api-client.js";
import { notify } from "../lib/notify.js";

/**
 * Any 401 on a page that was signed in (issue 29): the session is gone (an admin disabled the account, it
 * expired, another device changed the password). Forget the account's reads and mark the tab signed out; the
 * route guard (`RequireAuth`) then sends the page to /login?next=<here>, which says why and returns after.
 */
export function handleEndedSessions(client: QueryClient): void {
  onUnauthorized((error) => {
    if (!client.getQueryData(currentUserQuery.queryKey)) return;
    rememberSignedOutReason(isSignedOutReason(error.body.reason) ? error.body.reason : "session_ended");
    notify.quietAfterSessionEnded();
    signOut(client);
  });
}
