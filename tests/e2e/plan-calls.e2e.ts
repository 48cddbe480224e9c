// Issue 29, items 9 and 11: the calls to sign up lead somewhere (registration closed: "Sign in", on the prerendered
// pages and in the app; a signed-in reader of /pricing is offered the upgrade or "Your plan", never registration),
// and the Free plan's price is shown in the live currency ("€0 forever" beside "€149.50").
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const REGISTER = "/auth?tab=register";
let admin: { username: string; password: string };
const h: Harness = startHarness({
  ready: async (harness) => {
    admin = await registerViaApi(harness, uniqueAccount("admin"));
  },
});

/** Sends an admin's settings change from a signed-in admin page; answers the status. */
async function adminSave(path: string, method: "POST" | "PATCH", body: object): Promise<number> {
  const page = await h.newPage();
  await signIn(page, admin);
  const status = await page.evaluate(
    async ({ path, method, body }) =>
      (await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })).status,
    { path, method, body },
  );
  await page.close();
  return status;
}
const setRegistration = (allowRegistration: boolean) => adminSave("/api/admin/platform-settings", "PATCH", { allowRegistration });

/** Runs `look` on a new page at 1440 and 390 px, in light and in dark. */
async function inEveryLook(look: (page: Page, width: number, theme: "light" | "dark") => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const theme of ["light", "dark"] as const) {
      const page = await h.newPage({ width, height });
      await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
      await look(page, width, theme);
      await page.close();
    }
  }
}

/** Every link of the page that leads to registration. */
const registerLinks = (page: Page) => page.locator(`a[href="${REGISTER}"]`);

describe("registration switched off", () => {
  // Registration opens again after the test, also when it failed or timed out (its body may still be running then):
  // the tests below register people.
  afterEach(async () => {
    expect(await setRegistration(true)).toBe(200);
  });

  it("the prerendered pages offer Sign in instead of Get Started Free, Get Early Access and Start Free Trial", async () => {
    expect(await setRegistration(false)).toBe(200);
    const page = await h.newPage();
    for (const path of ["/", "/features", "/pricing", "/faq"]) {
      // The HTML the server sends a visitor, before any script runs.
      const html = await page.request.get(path).then((response) => response.text());
      expect(html, path).not.toContain(`href="${REGISTER}"`);
      await page.goto(path);
      await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
      expect(await page.getByRole("banner").getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login");
      expect(await registerLinks(page).count(), path).toBe(0);
    }
    await page.goto("/pricing");
    const early = page.getByRole("article").filter({ has: page.getByRole("heading", { name: /^Early Access/ }) });
    expect(await early.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/login");
    await page.close();
    await inEveryLook(async (look, width, theme) => {
      await look.goto("/pricing");
      await look.getByRole("heading", { level: 1 }).waitFor();
      await look.screenshot({ path: screenshotPath(`pricing-registration-off-${width}-${theme}.png`), fullPage: width === 1440 });
    });
  }, 150_000);
});

describe("a signed-in reader of /pricing", () => {
  it("a free user is offered the Early Access checkout, never registration", async () => {
    const member = await registerViaApi(h, uniqueAccount("free"));
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/pricing");
    await page.getByRole("banner").getByRole("link", { name: "Dashboard" }).waitFor();
    expect(await registerLinks(page).count()).toBe(0);
    const monthly = page.locator("section", { has: page.getByRole("heading", { name: "Plans after early access" }) });
    const upgrades = monthly.getByRole("link", { name: "Get Early Access" });
    expect(await upgrades.count()).toBe(2);
    expect(await upgrades.first().getAttribute("href")).toBe("/checkout/early-access?from=%2Fpricing");
    const band = page.locator("section", { has: page.locator("#cta-heading") });
    expect(await band.getByRole("link", { name: "Get Early Access" }).getAttribute("href")).toBe("/checkout/early-access?from=%2Fpricing");
  });

  it("an Early Access user sees Your plan and the dashboard", async () => {
    const member = await registerViaApi(h, uniqueAccount("paid"));
    await h.database.db.execute(sql`update users set plan_type = 'earlyAccess' where id = ${member.id}`);
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/pricing");
    const early = page.getByRole("article").filter({ has: page.getByRole("heading", { name: /^Early Access/ }) });
    await early.getByRole("button", { name: "Your plan" }).waitFor();
    expect(await registerLinks(page).count()).toBe(0);
    const band = page.locator("section", { has: page.locator("#cta-heading") });
    expect(await band.getByRole("link", { name: "Go to Dashboard" }).getAttribute("href")).toBe("/dashboard");
  });
});

describe("the Free plan's price in the live currency", () => {
  it("shows €0 beside €149.50 (step 2, the pricing page) and the product's $0 in USD", async () => {
    expect(await adminSave("/api/admin/payment-settings", "POST", { earlyAccessPrice: "149.50", currency: "EUR" })).toBe(201);
    try {
      const visitor = await h.newPage();
      await visitor.goto("/pricing");
      const free = visitor.getByRole("article").filter({ has: visitor.getByRole("heading", { name: "Free", exact: true }) });
      await expect.poll(() => free.innerText()).toContain("€0 forever");
      expect(await free.innerText()).not.toContain("$");
      const html = await visitor.request.get("/pricing").then((response) => response.text());
      expect(html).toContain("€0");
      expect(html).not.toContain("$0");

      await inEveryLook(async (page, width, theme) => {
        await page.goto(REGISTER);
        const account = uniqueAccount("eur");
        await page.getByLabel("Username").fill(account.username);
        await page.getByLabel("Full Name").fill(account.name);
        await page.getByLabel("Email").fill(account.email);
        await page.getByLabel("Password", { exact: true }).fill(account.password);
        await page.getByLabel("Confirm Password").fill(account.password);
        await page.getByRole("button", { name: "Next" }).click();
        const plans = page.getByRole("radiogroup", { name: "Plan" });
        await expect.poll(() => plans.innerText()).toContain("€149.50");
        const freeCard = page.getByRole("radio", { name: /^Free/ }).locator("xpath=ancestor::label[1]");
        expect(await freeCard.innerText()).toMatch(/€0\s+forever/);
        expect(await plans.innerText()).not.toContain("$");
        await page.screenshot({ path: screenshotPath(`register-step-two-eur-${width}-${theme}.png`) });
      });
    } finally {
      expect(await adminSave("/api/admin/payment-settings", "PATCH", { earlyAccessPrice: "297", currency: "USD" })).toBe(200);
    }
    const visitor = await h.newPage();
    await visitor.goto("/pricing");
    const free = visitor.getByRole("article").filter({ has: visitor.getByRole("heading", { name: "Free", exact: true }) });
    await expect.poll(() => free.innerText()).toContain("$0 forever");
  });
});
