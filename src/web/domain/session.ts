import { type QueryClient, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { typedAddress } from "../../shared/contracts/endpoint.js";
import { firstScreenReads } from "../../shared/contracts/first-screen-reads.js";
import { SESSION_DATA_ID } from "../../shared/contracts/session-data.js";
import type { PublicUser, userApi } from "../../shared/contracts/user.js";
import { call, endpointKey } from "../lib/api-client.js";
import { rememberSignedOutReason } from "./signed-out-reason.js";

/** GET /api/session (`userApi.session`, by its address: the first screen loads no schemas). */
const currentUserRead = typedAddress<typeof userApi.session>(firstScreenReads.currentUser);

/** GET /api/session: the current user, or null when signed out (a 200 either way: no 401 in the console). */
export const currentUserQuery = queryOptions({
  queryKey: endpointKey(currentUserRead),
  queryFn: async ({ signal }): Promise<PublicUser | null> => {
    const answer = await call(currentUserRead, {}, { signal });
    // Nobody signed in, and the server says why this browser's session was ended (decision 061): the sign-in screen
    // the route guard goes to says it, as it does after a refused call.
    if (!answer.user && answer.ended) rememberSignedOutReason(answer.ended);
    return answer.user;
  },
});

/**
 * The session block of a page the server wrote for a signed-in user (`/chat`, decision 052): its user goes into the cache
 * as the session probe's answer, so the first render draws the signed-in shell without asking and waiting. The block is
 * read once and taken out of the page; true when it named a user. Without one (or with one that does not read as a
 * user) the app asks, as before.
 */
export function adoptPageSession(client: QueryClient): boolean {
  const block = document.getElementById(SESSION_DATA_ID);
  if (!block) return false;
  block.remove();
  try {
    const user = (JSON.parse(block.textContent ?? "") as { user?: Partial<PublicUser> | null } | null)?.user;
    if (
      user &&
      typeof user.id === "number" &&
      typeof user.username === "string" &&
      typeof user.role === "string" &&
      typeof user.planType === "string"
    ) {
      client.setQueryData(currentUserQuery.queryKey, user as PublicUser);
      return true;
    }
  } catch {
    // A damaged block: the app asks for the session.
  }
  return false;
}

/**
 * The signed-in user. Reads the cache directly as well as through the observer,
 * so a sign-in or sign-out followed at once by a navigation is seen by the route
 * guards in the same render (no bounce through a stale user).
 */
export function useCurrentUser() {
  const client = useQueryClient();
  // Destructured so the observer tracks data, isPending and error: React Query
  // re-renders a component only for the result fields it read.
  const { data, isPending, error, refetch } = useQuery(currentUserQuery);
  const cached = client.getQueryData(currentUserQuery.queryKey);
  const user = cached !== undefined ? cached : (data ?? null);
  return {
    user,
    isLoading: cached === undefined && isPending,
    error: cached === undefined ? error : null,
    refetch,
  };
}

/** Forgets every cached read of the previous account, keeping only the session entry. */
function dropAccountData(client: QueryClient): void {
  const [method, path] = currentUserQuery.queryKey;
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== method || query.queryKey[1] !== path });
}

/** After login or registration: the new user everywhere, nothing of a previous account left. The route guard moves on. */
export function signIn(client: QueryClient, user: PublicUser): void {
  dropAccountData(client);
  client.setQueryData(currentUserQuery.queryKey, user);
}

/** After logout. */
export function signOut(client: QueryClient): void {
  client.setQueryData(currentUserQuery.queryKey, null);
  dropAccountData(client);
}

/** After the user changed (profile, avatar): the new user everywhere. */
export function setCurrentUser(client: QueryClient, user: PublicUser): void {
  client.setQueryData(currentUserQuery.queryKey, user);
}

/**
 * After the plan changed (an Early Access upgrade): the new user everywhere, and every other read of this
 * account (models it may use, personalities...) fetched again, since what the plan unlocks changed with it.
 */
export function planChanged(client: QueryClient, user: PublicUser): void {
  client.setQueryData(currentUserQuery.queryKey, user);
  const [method, path] = currentUserQuery.queryKey;
  void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== method || query.queryKey[1] !== path });
}
