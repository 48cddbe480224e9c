import type { ReactNode } from "react";
import { PublicFooter } from "./public-footer.js";
import { PublicHeader } from "./public-header.js";

/**
 * The frame of every public page (landing, features, pricing, FAQ, contact, terms, privacy): a skip link,
 * the public header, the page and the footer. Each page's head (title, description) is app/document-title.tsx's.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id="main" className="flex-1">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}
