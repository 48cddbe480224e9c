import type { ReactNode } from "react";
import { paths } from "../lib/paths.js";
import { AuthPage, CheckoutPage, DashboardPage, LandingPage, NotFoundPage, PrivacyPage, SettingsPage, TermsPage } from "./lazy-pages.js";
import { GuestOnly, HomeSwitch, PublicPage, RequireAuth } from "./route-guards.js";

type RouteEntry = { path: string; render: () => ReactNode };

/** The one route table. Order matters only for readability: paths are exact. */
export const routes: RouteEntry[] = [
  { path: paths.home, render: () => <HomeSwitch signedIn={<DashboardPage />} signedOut={<LandingPage />} /> },
  {
    path: paths.login,
    render: () => (
      <GuestOnly>
        <AuthPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.auth,
    render: () => (
      <GuestOnly>
        <AuthPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.checkout,
    render: () => (
      <GuestOnly>
        <CheckoutPage />
      </GuestOnly>
    ),
  },
  {
    path: paths.terms,
    render: () => (
      <PublicPage>
        <TermsPage />
      </PublicPage>
    ),
  },
  {
    path: paths.privacy,
    render: () => (
      <PublicPage>
        <PrivacyPage />
      </PublicPage>
    ),
  },
  {
    path: paths.dashboard,
    render: () => (
      <RequireAuth>
        <DashboardPage />
      </RequireAuth>
    ),
  },
  {
    path: paths.settings,
    render: () => (
      <RequireAuth>
        <SettingsPage />
      </RequireAuth>
    ),
  },
];

export const renderNotFound = () => (
  <PublicPage>
    <NotFoundPage />
  </PublicPage>
);
