import type { PublicUser } from "./user.js";

/**
 * The chat page's session block (decision 052): a signed-in user's page carries `GET /api/session`'s answer, so the
 * app draws the signed-in shell at once instead of waiting for the session probe, which on PGlite answered behind
 * the sidebar's preloaded reads on the server's one thread. Data, never executed (the CSP allows it, decision 002).
 */
export const SESSION_DATA_ID = "session-data";

/** The block holding `{ user }` as the session probe answers it; `<` is escaped so no value can close the element. */
export function sessionDataScript(user: PublicUser): string {
  return `<script type="application/json" id="${SESSION_DATA_ID}">${JSON.stringify({ user }).replace(/</g, "\\u003c")}</script>`;
}
