// Prerendered public pages (issue 13, "Fast and findable"), in Chromium against a build made with the
// prerender step (npm run build; scripts/run-e2e.ts builds that way). Without JavaScript each public page
// shows its real heading; with JavaScript the browser takes over the server's HTML: no hydration warning,
// the very same heading element before and after, no layout shift, the same title; a link to another
// public page gives that page its own title and description.
import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";
import { describe, expect, it } from "vitest";
import { publicPageTitle } from "../../src/shared/prerender.js";
import { PUBLIC_PAGES } from "../../src/shared/public-pages.js";
import { startHarness } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();

/** Runs before any of the page's scripts: keeps the first <h1> the HTML parser makes, and adds up layout shifts. */
const WATCH_PAGE = `
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  new MutationObserver((_records, observer) => {
    const heading = document.querySelector("#root h1");
    if (heading) { window.__serverHeading = heading; window.__serverTitle = document.title; observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
`;

/**
 * React's warnings and errors about hydration: a console error or warning in development wording, or the
 * production build's uncaught error (#418 text, #419/#421/#422/#423/#425: a subtree rendered anew).
 */
const HYDRATION_PROBLEM = /hydrat|did not match|Minified React error #(418|419|421|422|423|425)\b/i;
function hydrationWarnings(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if ((message.type() === "error" || message.type() === "warning") && HYDRATION_PROBLEM.test(text)) seen.push(text);
  });
  page.on("pageerror", (error) => {
    if (HYDRATION_PROBLEM.test(error.message)) seen.push(error.message);
  });
  return seen;
}

/** Waits until React owns the heading (a hydrated node carries React's fiber key). */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const heading = document.querySelector("#root h1");
    return !!heading && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
}

/**
 * Each public page's heading, written out here (the pages' source is not read): what the hydrated page and the
 * page without JavaScript must both show. A public page missing from this list fails, it is never compared with itself.
 */
const HEADINGS: Record<string, string> = {
  "/": "Create courses with AI. Chat with every leading model.",
  "/features": "Everything you need to create with AI",
  "/pricing": "Simple pricing, no surprises",
  "/faq": "Frequently asked questions",
  "/contact": "Contact us",
  "/terms-of-service": "Terms of Service",
  "/privacy-policy": "Privacy Policy",
};

describe("public pages with JavaScript", () => {
  it("hydrate the prerendered HTML: no warning, the same heading node, no layout shift, the same title", async () => {
    for (const publicPage of PUBLIC_PAGES) {
      const page = await h.newPage();
      const warnings = hydrationWarnings(page);
      await page.addInitScript(WATCH_PAGE);
      await page.goto(publicPage.path);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      const result = await page.evaluate(() => {
        const w = window as unknown as { __serverHeading?: Element; __serverTitle?: string; __layoutShift: number };
        const heading = document.querySelector("#root h1");
        return {
          sameNode: !!w.__serverHeading && w.__serverHeading === heading,
          heading: heading?.textContent?.trim() ?? "",
          serverTitle: w.__serverTitle,
          title: document.title,
          shift: w.__layoutShift,
        };
      });
      expect(warnings, publicPage.path).toEqual([]);
      expect(result.sameNode, `${publicPage.path}: the prerendered heading is kept, not drawn again`).toBe(true);
      expect(result.heading, publicPage.path).toBe(HEADINGS[publicPage.path]);
      expect(result.serverTitle).toBe(publicPageTitle(publicPage, "Lumora"));
      expect(result.title).toBe(result.serverTitle);
      expect(result.shift, `${publicPage.path}: layout shift`).toBeLessThan(0.05);
      await page.context().close();
    }
  });

  it("gives a public page reached by a link its own title and description", async () => {
    const page = await h.newPage();
    await page.goto("/");
    await hydrated(page);
    const pricing = PUBLIC_PAGES.find((p) => p.path === "/pricing")!;
    await page.locator('a[href="/pricing"]').first().click();
    await page.waitForURL("**/pricing");
    await page.waitForFunction((title) => document.title === title, publicPageTitle(pricing, "Lumora"));
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description).toBe(pricing.description);
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe(publicPageTitle(pricing, "Lumora"));
    // An app page has the product name only.
    await page.goto("/auth");
    await page.waitForFunction(() => document.title === "Lumora");
  });

  it("loads only the public pages' own small app (≤ 100 KiB of scripts, gzip); a link into the app loads the app", async () => {
    for (const publicPage of PUBLIC_PAGES) {
      const page = await h.newPage();
      const sizes: Promise<{ url: string; gzip: number }>[] = [];
      const onResponse = (response: Response) => {
        if (response.request().resourceType() !== "script") return;
        sizes.push(
          response.body().then((body) => ({ url: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).byteLength })),
        );
      };
      page.on("response", onResponse);
      await page.goto(publicPage.path, { waitUntil: "networkidle" });
      page.off("response", onResponse);
      const scripts = await Promise.all(sizes);
      const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
      // The signed-in app (index.html's entry, with React Query and zod) is not among them.
      expect(
        scripts.filter((script) => /\/assets\/index-/.test(script.url)),
        publicPage.path,
      ).toEqual([]);
      expect(total / 1024, `${publicPage.path}: first-screen scripts in KiB, gzip`).toBeLessThanOrEqual(100);
      await page.context().close();
    }

    // Login is drawn by the same small app (decision 017): no page load, no signed-in app. A link to a page
    // it does not have (Forgot password) loads that page from the server, and the signed-in app draws it.
    const page = await h.newPage();
    const appLoaded = () => page.evaluate(() => [...document.scripts].some((script) => /\/assets\/index-/.test(script.src)));
    await page.goto("/pricing");
    await hydrated(page);
    await page.evaluate(() => Object.assign(window, { __samePage: true }));
    await page.getByRole("banner").getByRole("link", { name: "Login" }).click();
    await page.waitForURL(/\/(login|auth)/);
    await page.getByLabel("Password", { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(await appLoaded()).toBe(false);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL("**/forgot-password");
    await expect.poll(appLoaded).toBe(true);
  });

  it("looks the same hydrated in the dark theme on a phone", async () => {
    const page = await h.newPage({ width: 390, height: 844 });
    const warnings = hydrationWarnings(page);
    await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await page.goto("/pricing");
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => document.documentElement.className)).toContain("dark");
    expect(warnings).toEqual([]);
    await page.screenshot({ path: screenshotPath("prerender-pricing-dark-390.png"), fullPage: false });
  });
});

describe("public pages without JavaScript", () => {
  it("show their real heading, as a crawler or a visitor with scripts off sees them", async () => {
    for (const publicPage of PUBLIC_PAGES) {
      const context = await h.browser.newContext({ baseURL: h.baseUrl, javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(publicPage.path);
      const heading = page.getByRole("heading", { level: 1 }).first();
      await heading.waitFor();
      const text = (await heading.textContent())?.trim() ?? "";
      expect(text, publicPage.path).toBe(HEADINGS[publicPage.path]);
      expect(await page.title()).toBe(publicPageTitle(publicPage, "Lumora"));
      if (publicPage.path === "/") await page.screenshot({ path: screenshotPath("prerender-landing-nojs-1440.png"), fullPage: false });
      await context.close();
    }
    const context = await h.browser.newContext({ baseURL: h.baseUrl, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const phone = await context.newPage();
    await phone.goto("/features");
    await phone.getByRole("heading", { level: 1 }).first().waitFor();
    await phone.screenshot({ path: screenshotPath("prerender-features-nojs-390.png"), fullPage: false });
    await context.close();
  });
});
