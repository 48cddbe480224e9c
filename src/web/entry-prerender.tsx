/**
 * The build-time entry of the prerendered public pages (issue 13), bundled for Node by scripts/prerender.ts
 * (`vite build --ssr`): the app's real tree for one path, signed out, with the given public settings. It
 * imports no CSS and touches no browser object; main.tsx renders the same tree when it hydrates the page.
 */
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import type { BootData } from "../shared/prerender.js";
import { App } from "./app/app.js";
import { seedBootData } from "./app/boot-data.js";
import { queryClient } from "./lib/query-client.js";

/**
 * The markup of `#root` at `path`. `prerenderToNodeStream` waits for the lazy pages and every Suspense
 * boundary, so the page's real content comes out, never a spinner. Renders one page at a time (the app's
 * one query client is seeded for it); an error anywhere in the tree fails the page.
 */
export async function renderPage(path: string, boot: BootData): Promise<string> {
  queryClient.clear();
  seedBootData(queryClient, boot);
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Router ssrPath={path}>
        <App />
      </Router>
    </StrictMode>,
    { onError: (error) => void errors.push(error) },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  if (errors.length > 0) throw errors[0];
  return Buffer.concat(chunks).toString("utf8");
}
