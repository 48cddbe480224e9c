import { createContext, useContext } from "react";
import type { PublicUser } from "../../../shared/contracts/auth.js";

/** A toast to show once the person is signed in. */
export interface Welcome {
  title: string;
  description: string;
}

/**
 * What the sign-in screens ask of the app around them (decision 017). Two apps draw them:
 * - the signed-in app (`QueryAuthHost`): the new user goes into React Query's cache and the route guard
 *   moves on to ?next;
 * - the visitors' small app (`app/public-app.tsx`), which serves /auth's first screen without React Query
 *   or zod: the browser loads the signed-in app at ?next, and the toast is shown there.
 */
export interface AuthHost {
  /** A login or a registration succeeded. */
  signedIn(user: PublicUser, welcome: Welcome): void;
  /** The server refused because a setting changed meanwhile (registration closed, payments switched off): read it again. */
  settingsChanged(which: "platform" | "payments"): void;
  /** Goes to a page of the signed-in app (the checkout): a route change there, one page load from the small app. */
  open(path: string): void;
}

export const AuthHostContext = createContext<AuthHost | null>(null);

export function useAuthHost(): AuthHost {
  const host = useContext(AuthHostContext);
  if (!host) throw new Error("The sign-in screens need an AuthHostContext provider (QueryAuthHost or app/public-app.tsx)");
  return host;
}
