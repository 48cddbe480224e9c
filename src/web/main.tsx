import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Router } from "wouter";
import { App } from "./app/app.js";
import { prefetchFirstScreen } from "./app/first-screen-prefetch.js";
import { adoptPageSession } from "./domain/session.js";
import { showCarriedToast } from "./features/auth/carried-toast.js";
import { queryClient } from "./lib/query-client.js";
import { useGuardedBrowserLocation } from "./lib/unsaved-changes.js";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

// The signed-in app (and /auth, checkout...). The prerendered public pages have their own entry: public-main.tsx.
// A toast the small sign-in app raised just before it handed over to this app ("Login successful").
showCarriedToast();
// A page written for a signed-in user carries who that is (decision 052): the first render draws the shell at once.
adoptPageSession(queryClient);
prefetchFirstScreen(window.location.pathname);
createRoot(root).render(
  <StrictMode>
    {/* Every navigation asks first when a form has unsaved changes (lib/unsaved-changes.ts). */}
    <Router hook={useGuardedBrowserLocation}>
      <App />
    </Router>
  </StrictMode>,
);
