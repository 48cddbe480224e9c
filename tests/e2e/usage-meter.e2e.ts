// Usage meter (issue 16, decision 016): the admin sets a small messages-per-day allowance on Payment Settings,
// the member's composer shows what is left, counts down with each reply, then blocks with the server's message;
// the admin users table shows the use against the plan. Screenshots at 1440 and 390 px, light and dark.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagesSpentMessage } from "../../src/shared/contracts/usage.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let adminApi: CookieClient;
let admin: { username: string; password: string };
let member: { username: string; password: string };

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  adminApi = await adminWithStandIn(h, fake, { models: ["gpt-4o-mini"], freeModels: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" });
  const me = (await adminApi.get("/api/user")).json() as { username?: string };
  admin = { username: me.username ?? "", password: "Str0ng!pass" };
  member = await registerViaApi(h, uniqueAccount("member"));
});
afterAll(async () => {
  await fake?.close();
});

const meter = (page: Page) => page.getByTestId("usage-meter");

async function sendAndWait(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  await page.locator('[data-message-role="assistant"]', { hasText: `Echo: ${text}` }).waitFor();
}

async function asTheme(page: Page, theme: "light" | "dark") {
  await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
}

describe("usage meter", () => {
  it("the admin sets a plan limit; the member's meter counts down, then blocks sending with the reason", { timeout: 120_000 }, async () => {
    const adminPage = await h.newPage();
    await signIn(adminPage, admin);
    await adminPage.goto("/admin/payment-settings");
    const card = adminPage.getByRole("form", { name: "Plan limits" });
    await card.getByLabel("Messages per day").first().fill("0");
    await card.getByRole("button", { name: "Save Limits" }).click();
    await card.getByText("Allowance must be at least 1, or empty for unlimited").waitFor();
    await card.getByLabel("Messages per day").first().fill("2");
    await card.getByRole("button", { name: "Save Limits" }).click();
    await adminPage.locator("[data-sonner-toast]", { hasText: "Plan limits updated" }).waitFor();
    expect((await adminApi.get("/api/admin/plan-allowances")).json().free).toEqual({ monthlyTokens: null, messagesPerDay: 2 });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: screenshotPath("usage-plan-limits-1440.png"), animations: "disabled" });

    const page = await h.newPage();
    await asTheme(page, "light");
    await signIn(page, member);
    await page.goto("/chat");
    await expect.poll(() => meter(page).innerText()).toContain("2 messages left today");
    await page.screenshot({ path: screenshotPath("usage-meter-1440-light.png"), animations: "disabled" });

    await sendAndWait(page, "first of two");
    await expect.poll(() => meter(page).innerText()).toContain("1 message left today");
    await sendAndWait(page, "second of two");

    const blocked = page.getByRole("alert").filter({ hasText: messagesSpentMessage(2) });
    await blocked.waitFor();
    expect(await blocked.innerText()).toContain("Sending is back on");
    expect(await page.getByRole("textbox", { name: "Message" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Send message" }).isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath("usage-meter-blocked-1440-light.png"), animations: "disabled" });

    // The server refuses too, with the same message (the meter is only the client's read).
    const refused = await page.request.post(`/api/chats/${new URL(page.url()).pathname.split("/")[2]}/reply`, {
      data: { content: "third" },
    });
    expect(refused.status()).toBe(429);
    expect((await refused.json()).message).toBe(messagesSpentMessage(2));

    // Dark, and at 390 px in both themes.
    const dark = await h.newPage();
    await asTheme(dark, "dark");
    await signIn(dark, member);
    await dark.goto(new URL(page.url()).pathname);
    await dark
      .getByRole("alert")
      .filter({ hasText: messagesSpentMessage(2) })
      .waitFor();
    await dark.screenshot({ path: screenshotPath("usage-meter-blocked-1440-dark.png"), animations: "disabled" });
    for (const theme of ["light", "dark"] as const) {
      const phone = await h.newPage({ width: 390, height: 844 });
      await asTheme(phone, theme);
      await signIn(phone, member);
      await phone.goto(new URL(page.url()).pathname);
      await phone
        .getByRole("alert")
        .filter({ hasText: messagesSpentMessage(2) })
        .waitFor();
      await phone.screenshot({ path: screenshotPath(`usage-meter-blocked-390-${theme}.png`), animations: "disabled" });
    }

    // Raised by the admin: the composer opens again with what is left.
    expect(
      (
        await adminApi.request({
          method: "PUT",
          url: "/api/admin/plan-allowances",
          payload: { free: { monthlyTokens: 100_000, messagesPerDay: 5 }, earlyAccess: { monthlyTokens: null, messagesPerDay: null } },
        })
      ).statusCode,
    ).toBe(200);
    const phone = await h.newPage({ width: 390, height: 844 });
    await asTheme(phone, "dark");
    await signIn(phone, member);
    await phone.goto(new URL(page.url()).pathname);
    await expect.poll(() => meter(phone).innerText()).toMatch(/tokens left this month · 3 messages left today/);
    await phone.screenshot({ path: screenshotPath("usage-meter-390-dark.png"), animations: "disabled" });
  });

  it("the admin users table shows messages today and tokens this month against the plan", { timeout: 60_000 }, async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/admin/users");
    const row = page.getByRole("row", { name: member.username });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/2 \/ 5/);
    expect(await row.innerText()).toMatch(/\d[\d,]* \/ 100,000/);
    await page.screenshot({ path: screenshotPath("usage-admin-users-1440.png"), animations: "disabled" });
  });
});
