import type { FastifyInstance } from "fastify";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { buildApp } from "../../../src/server/app.js";
import type { Database } from "../../../src/server/db/client.js";
import { CookieClient, testConfig } from "../../helpers/build-test-app.js";
import { openTestDatabase } from "../../helpers/test-database.js";
import { findChromium } from "./chromium-path.js";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// Any 4xx but 401: a signed-out page must not log one (the session probe answers 200), so a 401 is a test's to expect.
const EXPECTED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of 4(?!01)\d\d /;

export interface Harness {
  baseUrl: string;
  app: FastifyInstance;
  database: Database;
  browser: Browser;
  /**
   * A fresh browser profile (no cookies, no storage) with console-error tracking. `expectedStatuses`: 5xx
   * answers this page is meant to get (a test of "payments are not set up" expects a 503), and 401 where the
   * page is meant to get one (a wrong password). `timezoneId` and `locale`: the browser's, when a test needs them fixed
   * (the visual baselines draw times in UTC, en-US).
   */
  newPage(options?: { width?: number; height?: number; expectedStatuses?: number[]; timezoneId?: string; locale?: string }): Promise<Page>;
}

export interface HarnessOptions {
  /**
   * More environment for the app's config, awaited inside the harness's beforeAll before the app starts: a
   * file can start a stand-in here and name its URL, e.g. `STRIPE_API_URL: fake.url`.
   */
  env?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Runs once the app and the browser are up (an admin account, seed data), before the file's tests. */
  ready?: (harness: Harness) => Promise<unknown>;
}

/**
 * Starts the real app (built web + API, on a scratch database) on a loopback
 * port and one Chromium for the file (or for the describe block it is called in).
 * Any console error or page error in a test fails that test (house rule 8).
 */
export function startHarness(options: HarnessOptions = {}): Harness {
  const harness = {} as Harness;
  const contexts: BrowserContext[] = [];
  let problems: string[] = [];

  beforeAll(async () => {
    const executablePath = findChromium();
    if (!executablePath) throw new Error("Chromium not found: apt-get update && apt-get install -y chromium");
    harness.database = await openTestDatabase();
    // WEB_DIST: a web build of its own (several walks built in parallel must not share dist/web).
    const config = testConfig({ ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}), ...(await options.env?.()) });
    harness.app = await buildApp({ config, database: harness.database, logger: false });
    await harness.app.listen({ host: "127.0.0.1", port: 0 });
    const address = harness.app.server.address();
    harness.baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    harness.browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    harness.newPage = async (pageOptions = {}) => {
      const context = await harness.browser.newContext({
        baseURL: harness.baseUrl,
        viewport: { width: pageOptions.width ?? 1440, height: pageOptions.height ?? 900 },
        ...(pageOptions.timezoneId ? { timezoneId: pageOptions.timezoneId } : {}),
        ...(pageOptions.locale ? { locale: pageOptions.locale } : {}),
      });
      const expected = (pageOptions.expectedStatuses ?? []).map(
        (status) => `Failed to load resource: the server responded with a status of ${status} `,
      );
      contexts.push(context);
      const page = await context.newPage();
      page.on("console", (message) => {
        // Chromium logs every 4xx answer as a console error; the app handles those (409 = name taken...).
        // A 401 (unless expected), anything else, and any 5xx, is a real problem.
        const text = message.text();
        if (message.type() === "error" && !EXPECTED_HTTP_ERROR.test(text) && !expected.some((start) => text.startsWith(start))) {
          problems.push(`console error: ${text}`);
        }
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      return page;
    };
    await options.ready?.(harness);
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    const seen = problems;
    problems = [];
    expect(seen, "the browser reported errors").toEqual([]);
  });

  afterAll(async () => {
    await harness.browser?.close();
    await harness.app?.close();
    await harness.database?.close();
  });

  return harness;
}

let serial = 0;
export function uniqueAccount(prefix = "walker") {
  serial += 1;
  const id = `${Date.now().toString(36)}${serial}`;
  return { username: `${prefix}${id}`, name: "Ada Lovelace", email: `${prefix}${id}@example.com`, password: "Str0ng!pass" };
}

/** Registers through the API (faster than the form) and returns the account; the browser is not signed in. */
export async function registerViaApi(harness: Harness, account = uniqueAccount()) {
  const response = await harness.app.inject({ method: "POST", url: "/api/register", payload: { ...account, planType: "free" } });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  return { ...account, id: response.json().id as number, role: response.json().role as string };
}

/** A client of the API signed in as `account` (for what a walk sets up without the browser). */
export async function apiAs(harness: Harness, account: { username: string; password: string }): Promise<CookieClient> {
  const client = new CookieClient(harness.app);
  const response = await client.post("/api/login", { username: account.username, password: account.password });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return client;
}

/** Ticks the Register tab's terms checkbox, which opens unticked (decision 060). */
export async function acceptTerms(page: Page) {
  const terms = page.getByRole("checkbox", { name: /I agree to the Terms of Service/ });
  if ((await terms.getAttribute("data-state")) !== "checked") await terms.click();
}

/** Signs in through the form; stays on the current /login?next=... page when already there. */
export async function signIn(page: Page, account: { username: string; password: string }) {
  if (new URL(page.url(), "http://x").pathname !== "/login") await page.goto("/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}
