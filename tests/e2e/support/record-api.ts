import type { Page } from "playwright-core";

/** Every /api request the page makes from now on, as "METHOD /path" (ids as :id). */
export function recordApi(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) seen.push(`${request.method()} ${url.pathname.replace(/\/\d+(?=\/|$)/g, "/:id")}`);
  });
  return seen;
}
