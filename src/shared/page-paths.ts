import { PUBLIC_PAGES } from "./public-pages.js";

/**
 * Which addresses are pages of the web app (issue 29): the server answers any other address 404, still with the
 * app's HTML so the browser draws the not-found screen. It mirrors the route table (web/app/routes.tsx, whose
 * paths are web/lib/paths.ts; `page-paths.test.ts` there checks every route is known here).
 */
const EXACT = new Set([
  ...PUBLIC_PAGES.map((page) => page.path),
  "/login",
  "/auth",
  "/forgot-password",
  "/reset-password",
  "/checkout/early-access",
  "/dashboard",
  "/settings",
  "/personalities",
  "/chat",
  "/courses",
  "/admin",
  "/knowledge",
  "/catalog",
]);

/**
 * Patterns with a part the page reads: one chat, the email preview; and the whole of /courses/* and /admin/*,
 * which go to /courses and the users page (docs/product.md, Courses and lessons; Admin back office). A chat or course id that does not
 * exist (or is not yours) is the page's to say ("Chat not found", "Course not found"): the status stays 200.
 */
const PATTERNS = [
  /^\/catalog\/[^/]+(?:\/preview)?$/,
  /^\/certificates\/[^/]+$/,
  /^\/share\/[^/]+$/,
  /^\/chat\/[^/]+$/,
  /^\/courses\/.+$/,
  /^\/admin\/.+$/,
];

/** Whether the path (no query; a trailing slash ignored) is a page of the app. */
export function isPagePath(pathname: string): boolean {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
  return EXACT.has(clean) || PATTERNS.some((pattern) => pattern.test(clean));
}

/**
 * The chat pages' paths (`paths.chat` and `/chat/{id}` in web/lib/paths.ts): the pages whose first screen is started
 * before the first render (web/app/first-screen-prefetch.ts) and whose answer names its first reads (issue 29). Here,
 * not beside those reads' addresses (contracts/sidebar-first-reads.ts): the web's entry asks it before anything else
 * and must not load the contracts (and zod) with it.
 */
export const opensChat = (pathname: string) => pathname === "/chat" || pathname.startsWith("/chat/");
