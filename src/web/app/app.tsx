import { Route, Switch, useLocation } from "wouter";
import { PageHead } from "./document-title.js";
import { ErrorBoundary } from "./error-boundary.js";
import { Providers } from "./providers.js";
import { renderNotFound, routes } from "./routes.js";
import { ScrollToTop } from "./scroll-to-top.js";

export function App() {
  const [location] = useLocation();
  return (
    <Providers>
      <ScrollToTop />
      <PageHead />
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
