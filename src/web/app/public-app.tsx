import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from "react";
import { Route, Switch, useLocation } from "wouter";
import type { BootData } from "../../shared/prerender.js";
import { PageSpinner } from "../components/ui/spinner.js";
import { bootPublicReads } from "../domain/boot-reads.js";
import { InitialReadsContext } from "../domain/initial-reads.js";
import { PublicReadsContext } from "../domain/public-reads.js";
import { paths } from "../lib/paths.js";
import { PageHead } from "./document-title.js";
import { ErrorBoundary } from "./error-boundary.js";
import {
  CatalogCoursePage,
  CatalogPage,
  CatalogPreviewPage,
  CertificatePage,
  ContactPage,
  FaqPage,
  FeaturesPage,
  LandingPage,
  PricingPage,
  PrivacyPage,
  TermsPage,
} from "./public-lazy-pages.js";
import { ScrollToTop } from "./scroll-to-top.js";
import { ThemeProvider } from "./theme-provider.js";

const PUBLIC_ROUTES: { path: string; page: () => ReactNode }[] = [
  { path: paths.home, page: () => <LandingPage /> },
  { path: paths.features, page: () => <FeaturesPage /> },
  { path: paths.pricing, page: () => <PricingPage /> },
  { path: paths.faq, page: () => <FaqPage /> },
  { path: paths.contact, page: () => <ContactPage /> },
  { path: paths.terms, page: () => <TermsPage /> },
  { path: paths.privacy, page: () => <PrivacyPage /> },
  /** Not prerendered: the server sends the small app's page to visitors (noindex), and the page reads the API. */
  { path: paths.certificateRoute, page: () => <CertificatePage /> },
  /** Rendered by the server at request time with their data (the boot data's `reads`), then hydrated (issue 33). */
  { path: paths.catalog, page: () => <CatalogPage /> },
  { path: paths.catalogCourseRoute, page: () => <CatalogCoursePage /> },
  { path: paths.catalogPreviewRoute, page: () => <CatalogPreviewPage /> },
];

/** The sign-in screens, drawn in the browser (not prerendered): the server sends them to visitors without a session. */
const AUTH_PATHS = [paths.auth, paths.login];

const PublicAuthPage = lazy(() => import("./public-auth-page.js").then((m) => ({ default: m.PublicAuthPage })));

/**
 * A link to a page this app does not have (sign in, register, the dashboard): the address is already the
 * new one, so loading it from the server gives the signed-in app there (index.html), with its own code.
 */
function LoadFromServer() {
  useEffect(() => window.location.reload(), []);
  return null;
}

/**
 * The prerendered public pages' own app (decision 015): the public pages, their layout and the values the
 * server put into the page, and the sign-in screens for visitors (decision 017), with no React Query, zod, session or router table of the signed-in app, so a
 * visitor's first screen stays small. Links between public pages stay in it; any other link loads that
 * page from the server. `entry-prerender.tsx` renders the same tree at build time, `public-main.tsx`
 * hydrates it.
 */
export function PublicApp({ boot: initialBoot }: { boot: BootData }) {
  const [boot, setBoot] = useState(initialBoot);
  const reads = useMemo(() => bootPublicReads(boot), [boot]);
  const initialReads = useMemo(() => boot.reads ?? {}, [boot.reads]);
  const [location] = useLocation();

  return (
    <PublicReadsContext value={reads}>
      <InitialReadsContext value={initialReads}>
        <ThemeProvider>
          <ScrollToTop />
          <PageHead homeIsLanding />
          <ErrorBoundary resetKey={location}>
            <Suspense fallback={null}>
              <Switch>
                {PUBLIC_ROUTES.map((route) => (
                  <Route key={route.path} path={route.path}>
                    {route.page()}
                  </Route>
                ))}
                {AUTH_PATHS.map((path) => (
                  <Route key={path} path={path}>
                    <Suspense fallback={<PageSpinner label="Loading the sign-in form" />}>
                      <PublicAuthPage setBoot={setBoot} />
                    </Suspense>
                  </Route>
                ))}
                <Route>
                  <LoadFromServer />
                </Route>
              </Switch>
            </Suspense>
          </ErrorBoundary>
        </ThemeProvider>
      </InitialReadsContext>
    </PublicReadsContext>
  );
}
