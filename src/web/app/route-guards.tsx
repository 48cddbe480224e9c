import { type ReactNode, Suspense, useEffect } from "react";
import { Redirect, useLocation, useSearch } from "wouter";
import { isPagePath } from "../../shared/page-paths.js";
import { safeRedirectPath } from "../../shared/safe-redirect.js";
import { PageSpinner } from "../components/ui/spinner.js";
import { useCurrentUser } from "../domain/session.js";
import { errorMessage } from "../lib/api-client.js";
import { loginPath, paths } from "../lib/paths.js";
import { AccessDeniedPage, AppLayout, PublicLayout } from "./lazy-pages.js";
import { SessionError } from "./session-error.js";

/** Signed-in pages inside the shell; a signed-out visitor goes to /login?next=<here>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading, error, refetch } = useCurrentUser();
  const [location] = useLocation();
  const search = useSearch();
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (error) return <SessionError message={errorMessage(error)} onRetry={() => void refetch()} />;
  if (!user) return <Redirect to={loginPath(`${location}${search ? `?${search}` : ""}`)} replace />;
  return <SignedInShell>{children}</SignedInShell>;
}

/** Every /admin path: a signed-out visitor goes to /login like RequireAuth; a signed-in non-admin sees Access Denied. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useCurrentUser();
  return <RequireAuth>{user?.role === "admin" ? children : <AccessDeniedPage />}</RequireAuth>;
}

export function SignedInShell({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <AppLayout>
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </AppLayout>
    </Suspense>
  );
}

/**
 * /checkout/early-access. An account that has Early Access goes to ?from (same-site only) or /; a signed-in
 * free user gets the upgrade checkout inside the shell; a visitor gets the page, which resumes the checkout
 * this browser started (its cookie, even after the tab was closed) or sends them to the Register tab.
 */
export function CheckoutAccess({ children }: { children: ReactNode }) {
  const { user, isLoading, error, refetch } = useCurrentUser();
  const params = new URLSearchParams(useSearch());
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (error) return <SessionError message={errorMessage(error)} onRetry={() => void refetch()} />;
  if (user?.planType === "earlyAccess") {
    const back = safeRedirectPath(params.get("from"), paths.home);
    return <Redirect to={back.startsWith(paths.checkout) ? paths.home : back} replace />;
  }
  if (user) return <SignedInShell>{children}</SignedInShell>;
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/**
 * Sign-in and registration: a signed-in visitor goes to ?next (same-site only) or /. A `next` that is no page of the
 * app (the API reference, which sent a visitor here: decision 060) is loaded from the server.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  const next = new URLSearchParams(useSearch()).get("next");
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (user) {
    const target = safeRedirectPath(next, "/");
    if (!isPagePath(target.split(/[?#]/)[0] ?? "/")) return <LoadFromServer to={target} />;
    return <Redirect to={target} replace />;
  }
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/** A same-site address the app has no page for: one load from the server, in place of this one. */
function LoadFromServer({ to }: { to: string }) {
  useEffect(() => window.location.replace(to), [to]);
  return <PageSpinner />;
}

/** "/": the dashboard for a signed-in user, the landing page for a visitor. */
export function HomeSwitch({ signedIn, signedOut }: { signedIn: ReactNode; signedOut: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (user) return <SignedInShell>{signedIn}</SignedInShell>;
  return <Suspense fallback={<PageSpinner />}>{signedOut}</Suspense>;
}

/** The not-found screen's frame (issue 29): the app shell for a signed-in user, the public header and footer otherwise. */
export function NotFoundFrame({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner label="Checking your session" />;
  if (user) return <SignedInShell>{children}</SignedInShell>;
  return (
    <Suspense fallback={<PageSpinner />}>
      <PublicLayout>
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </PublicLayout>
    </Suspense>
  );
}

/** Pages anyone may open (legal pages). */
export function PublicPage({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}
