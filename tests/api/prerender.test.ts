// Prerendered public pages (issue 13, "Fast and findable"): a visitor without a session gets each public page
// as HTML with its own head, its real text and today's values (product name, price, support email), plus the
// boot data the browser hydrates with; a signed-in user gets the app shell; /sitemap.xml and /robots.txt.
// Builds the web app with the prerender step into a temporary folder once (about 15 s).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPaymentsApi } from "../../src/shared/contracts/payments.js";
import { platformSettingsApi } from "../../src/shared/contracts/platform-settings.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { BOOT_DATA_ID, escapeHtml, publicPageTitle } from "../../src/shared/prerender.js";
import { PUBLIC_PAGES } from "../../src/shared/public-pages.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

const run = promisify(execFile);
const webDist = mkdtempSync(path.join(tmpdir(), "web-prerender-test-"));

let t: TestApp;
let admin: CookieClient;
beforeAll(async () => {
  await run("npx", ["vite", "build", "--logLevel", "error", "--outDir", webDist]);
  await run("npx", ["tsx", "scripts/prerender.ts", "--outDir", webDist]);
  t = await buildTestApp({ env: { WEB_DIST: webDist } });
  admin = (await registerAndSignIn(t.app)).client;
}, 180_000);
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
/** The public reads as sent, whole (the boot data must be exactly them). */
const publicPlatform = async () => (await callApp(t.app, publicContentApi.platformSettings, {})).response.json();
const publicPayments = async () => (await callApp(t.app, publicContentApi.paymentSettings, {})).response.json();

/** The text of the first <h1> inside #root, tags and comments dropped. */
function mainHeading(html: string): string {
  const root = html.slice(html.indexOf('<div id="root">'));
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(root);
  return (match?.[1] ?? "").replace(/<[^>]*>/g, "").trim();
}

function bootData(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${BOOT_DATA_ID}">([^<]*)</script>`).exec(html);
  if (!match?.[1]) throw new Error("no boot data in the page");
  return JSON.parse(match[1]);
}

describe("a visitor without a session", () => {
  it("gets every public page prerendered: its own head, its heading, no token left, and the boot data", async () => {
    const api = await publicPlatform();
    const payments = await publicPayments();
    const headings = new Set<string>();
    for (const page of PUBLIC_PAGES) {
      const res = await get(`${page.path}?utm_source=test`);
      expect(res.statusCode, page.path).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(String(res.headers["content-security-policy"])).toContain("script-src 'self' https://js.stripe.com");
      const html = res.body;
      const title = escapeHtml(publicPageTitle(page, "Lumora"));
      const description = escapeHtml(page.description);
      expect(html, page.path).toContain(`<title>${title}</title>`);
      expect(html).toContain(`<meta name="description" content="${description}" />`);
      expect(html).toContain(`<meta property="og:title" content="${title}" />`);
      expect(html).toContain(`<meta property="og:description" content="${description}" />`);
      // The page's own text, not the empty shell or a spinner.
      const heading = mainHeading(html);
      expect(heading, `${page.path} has a main heading`).not.toBe("");
      expect(html).not.toContain("Checking your session");
      headings.add(heading);
      expect(html).not.toMatch(/%%[A-Z_]+|%25%25/);
      expect(bootData(html)).toEqual({ platformSettings: api, paymentSettings: payments });
    }
    expect(headings.size, "each page has its own heading").toBe(PUBLIC_PAGES.length);
  });

  it("shows the live product name (HTML-escaped) and price right after an admin changes them", async () => {
    const name = `Acme <b>&</b> "Academy"`;
    expect((await admin.call(platformSettingsApi.update, { body: { platformName: name } })).status).toBe(200);
    const saved = await admin.call(adminPaymentsApi.create, { body: { earlyAccessPrice: "1234.50", currency: "EUR" } });
    expect(saved.status).toBe(201);

    const landing = (await get("/")).body;
    expect(landing).toContain(`<title>${escapeHtml(publicPageTitle(PUBLIC_PAGES[0]!, name))}</title>`);
    expect(landing).toContain("Acme &lt;b&gt;&amp;&lt;/b&gt; &quot;Academy&quot;");
    expect(landing).not.toContain("<b>&</b>");
    const pricing = (await get("/pricing")).body;
    expect(pricing).toContain("€1,234.50");
    expect(pricing).not.toMatch(/%%[A-Z_]+/);

    // The boot data is the public API's answer, and `<` cannot close its script element.
    const boot = bootData(pricing) as { platformSettings: { platformName: string }; paymentSettings: unknown };
    expect(boot.platformSettings).toEqual(await publicPlatform());
    expect(boot.paymentSettings).toEqual(await publicPayments());

    expect(boot.platformSettings.platformName).toBe(name);
    expect(pricing).toContain("Acme \\u003cb>&\\u003c/b>");
  });

  it("gets the app shell for other paths, and for a cookie that is no session", async () => {
    for (const url of ["/dashboard", "/pricing/extra", "/no/such/page", "/auth/extra"]) {
      const html = (await get(url)).body;
      expect(html, url).toContain('<div id="root"></div>');
      expect(html).not.toContain(BOOT_DATA_ID);
    }
    const stale = await get("/features", { cookie: "sid=not-a-session" });
    expect(mainHeading(stale.body)).not.toBe("");
    expect(stale.headers.vary).toBe("Cookie");
  });

  it("gets the sign-in screens from the public pages' small app, with the live values and an empty #root (decision 017)", async () => {
    for (const url of ["/auth", "/login", "/login?next=/settings", "/auth?tab=register"]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toMatch(/<script type="module"[^>]* src="\/assets\/public-[^"]+\.js"/);
      expect(res.body).not.toMatch(/src="\/assets\/index-/);
      expect(res.body).toContain('<div id="root"></div>');
      expect(bootData(res.body)).toMatchObject({ platformSettings: { platformName: expect.any(String) } });
      expect(res.headers.vary).toBe("Cookie");
    }
    // A cookie that is no session is a visitor too.
    expect((await get("/auth", { cookie: "sid=not-a-session" })).body).toMatch(/src="\/assets\/public-/);
  });

  it("cannot fetch the raw prerendered files with their tokens", async () => {
    for (const url of ["/prerendered/landing.html", "/prerendered/manifest.json", "/public.html"])
      expect((await get(url)).statusCode, url).toBe(404);
  });
});

describe("a signed-in user", () => {
  it("gets the app at /auth and /login (its route guard sends them on)", async () => {
    for (const url of ["/auth", "/login"]) {
      const res = await admin.get(url);
      expect(res.body, url).toMatch(/src="\/assets\/index-/);
      expect(res.body).not.toContain(BOOT_DATA_ID);
    }
  });

  it("gets the plain app shell at / (the dashboard is drawn in the browser)", async () => {
    const res = await admin.get("/");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain(BOOT_DATA_ID);
    expect(mainHeading(res.body)).toBe("");
    expect(res.headers["cache-control"]).toBe("no-cache");
  });
});

describe("for crawlers", () => {
  it("/sitemap.xml lists exactly the public pages and the course catalogue (no course in it here), with the public origin", async () => {
    const res = await get("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/xml/);
    const locations = [...res.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual([...PUBLIC_PAGES.map((page) => `http://localhost:3000${page.path}`), "http://localhost:3000/catalog"]);
    expect(res.body).not.toMatch(/admin|dashboard|settings/);
  });

  it("/robots.txt allows the public pages, keeps crawlers out of the back office, the API and the app, and names the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = res.body.split("\n");
    for (const page of PUBLIC_PAGES) expect(lines).toContain(`Allow: ${page.path}`);
    for (const path of ["/admin", "/api/", "/dashboard", "/chat", "/settings", "/courses", "/personalities", "/checkout"])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});
