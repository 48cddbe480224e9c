import { useQuery } from "@tanstack/react-query";
import { Route, Switch, useLocation } from "wouter";
import { currentUserQuery } from "../domain/session.js";
import { paths } from "../lib/paths.js";
import { PageHead } from "./document-title.js";
import { ErrorBoundary } from "./error-boundary.js";
import { Providers } from "./providers.js";
import { renderNotFound, routes } from "./routes.js";
import { ScrollToTop } from "./scroll-to-top.js";

/** The head of the signed-in app's pages: only `/` depends on the session, so no other page is made to read it. */
function AppPageHead() {
  const [location] = useLocation();
  const home = location === paths.home;
  const session = useQuery({ ...currentUserQuery, enabled: home });
  return <PageHead homeIsLanding={home && session.data === null && !session.isFetching} />;
}

export function App() {
  const [location] = useLocation();
  return (
    <Providers>
      <ScrollToTop />
      <AppPageHead />
      <ErrorBoundary resetKey={location}>
        <Switch>
          {routes.map((route) => (
            <Route key={route.path} path={route.path}>
              {route.render()}
            </Route>
          ))}
          <Route>{renderNotFound()}</Route>
        </Switch>
      </ErrorBoundary>
    </Providers>
  );
}
