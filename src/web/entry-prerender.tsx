/**
 * The build-time entry of the prerendered public pages (issue 13), bundled for Node by scripts/prerender.ts
 * (`vite build --ssr`): the public pages' app (app/public-app.tsx) for one path, with the given public
 * settings. It imports no CSS and touches no browser object; public-main.tsx hydrates the same tree.
 */
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import type { BootData } from "../shared/prerender.js";
import { PublicApp } from "./app/public-app.js";

/**
 * The markup of `#root` at `path` (and `search`, without its "?"). Also run by the server at request time for the pages
 * it renders with live data (the catalogue, issue 33: plugins/server-rendered-pages.ts loads this bundle). `prerenderToNodeStream` waits for the lazy pages and every Suspense
 * boundary, so the page's real content comes out, never a spinner. An error anywhere in the tree fails the page.
 */
export async function renderPage(path: string, boot: BootData, search = ""): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Router ssrPath={path} ssrSearch={search}>
        <PublicApp boot={boot} />
      </Router>
    </StrictMode>,
    { onError: (error) => void errors.push(error) },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  if (errors.length > 0) throw errors[0];
  return Buffer.concat(chunks).toString("utf8");
}
