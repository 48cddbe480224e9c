import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { Router } from "wouter";
import { fallbackBootData, readBootData } from "./app/boot-data.js";
import { PublicApp } from "./app/public-app.js";
import "./styles.css";

/**
 * The entry of the prerendered public pages (public.html, filled in by scripts/prerender.ts and served to
 * visitors by the server): takes over the page's HTML with the tree entry-prerender.tsx rendered, fed by the
 * values the server put into the page.
 */
const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");
const boot = readBootData();
const app = (
  <StrictMode>
    <Router>
      <PublicApp boot={boot ?? fallbackBootData()} />
    </Router>
  </StrictMode>
);
// A page whose values block is damaged is drawn afresh with the product's defaults rather than hydrated; the
// sign-in screens (decision 017) come with the values but no HTML, and are drawn here.
if (boot && root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
