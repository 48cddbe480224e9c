import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { Router } from "wouter";
import { App } from "./app/app.js";
import { readBootData, seedBootData } from "./app/boot-data.js";
import { queryClient } from "./lib/query-client.js";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

// The same tree as src/web/entry-prerender.tsx renders at build time (the Router there names the path).
const app = (
  <StrictMode>
    <Router>
      <App />
    </Router>
  </StrictMode>
);

// A prerendered public page: seed the reads with the values the server rendered, then take over its HTML.
const boot = readBootData();
if (boot) seedBootData(queryClient, boot);
if (boot && root.firstChild) hydrateRoot(root, app);
else createRoot(root).render(app);
