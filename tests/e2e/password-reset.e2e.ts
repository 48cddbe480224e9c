import { and, desc, eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, passwordResetTokens, users } from "../../src/server/db/schema/index.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const NEW_PASSWORD = "N3w!secret-pass";
const SENT = "If an account exists for that email, we've sent a link to reset the password.";

beforeAll(async () => {
  // The first account on the empty database becomes the admin; the walk uses an ordinary one.
  await registerViaApi(h, uniqueAccount("admin"));
});

/** The reset link's path and query, read from the text part of the newest reset email to `to`. */
async function resetLinkFor(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const [mail] = await h.database.db
      .select({ text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.templateSlug, "password-reset")))
      .orderBy(desc(emailOutbox.id))
      .limit(1);
    const link = mail?.text.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
    if (link) {
      const url = new URL(link);
      return `${url.pathname}${url.search}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no reset email to ${to}`);
}

async function askForLink(page: Page, email: string) {
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL("**/forgot-password");
  await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await page.getByText(SENT).waitFor();
}

describe("password reset", () => {
  it("a user resets a forgotten password from the link in the email and signs in with it", async () => {
    const account = await registerViaApi(h, uniqueAccount("forgetful"));
    const page = await h.newPage();
    await page.goto("/forgot-password");
    // The form checks the email with the server's rule and message.
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByText("Please enter a valid email address").waitFor();
    await page.screenshot({ path: screenshotPath("password-reset-forgot-1440.png"), fullPage: true });

    await askForLink(page, account.email);
    await page.screenshot({ path: screenshotPath("password-reset-sent-1440.png"), fullPage: true });

    const link = await resetLinkFor(account.email);
    await page.goto(link);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    // The registration rules, then "Passwords do not match".
    await page.getByLabel("New password", { exact: true }).fill("weak");
    await page.getByLabel("Confirm new password").fill("weak");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password must be at least 8 characters").waitFor();
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(`${NEW_PASSWORD}x`);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Passwords do not match").waitFor();
    await page.screenshot({ path: screenshotPath("password-reset-form-1440.png"), fullPage: true });
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Your password has been changed. You can now sign in with your new password.").waitFor();
    await page.locator("[data-sonner-toast]", { hasText: "Password changed" }).first().waitFor();

    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/login");
    await signIn(page, { username: account.username, password: NEW_PASSWORD });
    expect(new URL(page.url()).pathname).toBe("/");

    // The link is spent: opening it again says so at once, before any password is typed, and offers a new one.
    const again = await h.newPage();
    await again.goto(link);
    await again.getByRole("heading", { name: "Reset link already used" }).waitFor();
    await again.getByText("This reset link has already been used. Please ask for a new one.").waitFor();
    expect(await again.getByLabel("New password", { exact: true }).count()).toBe(0);
    await again.getByRole("link", { name: "Ask for a new link" }).click();
    await again.waitForURL("**/forgot-password");
    await again.goto(link);
    await again.getByRole("heading", { name: "Reset link already used" }).waitFor();
    await again.screenshot({ path: screenshotPath("password-reset-used-1440.png"), fullPage: true });
  });

  it("an expired link says so when the page opens, on a phone and in the dark theme too", async () => {
    const account = await registerViaApi(h, uniqueAccount("late"));
    const page = await h.newPage();
    await askForLink(page, account.email);
    const link = await resetLinkFor(account.email);
    const [user] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.username, account.username));
    await h.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user?.id ?? -1));
    await page.goto(link);
    await page.getByRole("heading", { name: "Reset link expired" }).waitFor();
    await page.getByText("This reset link has expired. Please ask for a new one.").waitFor();
    expect(await page.getByLabel("New password", { exact: true }).count()).toBe(0);
    await page.getByRole("link", { name: "Ask for a new link" }).waitFor();
    await page.screenshot({ path: screenshotPath("password-reset-expired-1440.png"), fullPage: true });
    const phone = await h.newPage({ width: 390, height: 844 });
    await phone.goto(link);
    await phone.getByRole("heading", { name: "Reset link expired" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("password-reset-expired-390.png"), fullPage: true });
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      const dark = await h.newPage({ width, height });
      await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await dark.goto(link);
      await dark.getByRole("heading", { name: "Reset link expired" }).waitFor();
      await dark.screenshot({ path: screenshotPath(`password-reset-expired-dark-${width}.png`), fullPage: true });
    }
  });

  it("fits a phone and the dark theme", async () => {
    const account = await registerViaApi(h, uniqueAccount("phone"));
    const phone = await h.newPage({ width: 390, height: 844 });
    await askForLink(phone, account.email);
    await phone.screenshot({ path: screenshotPath("password-reset-sent-390.png"), fullPage: true });
    await phone.goto(await resetLinkFor(account.email));
    await phone.getByRole("heading", { name: "Choose a new password" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("password-reset-form-390.png"), fullPage: true });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await dark.goto("/login");
    await dark.getByRole("link", { name: "Forgot password?" }).waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("password-reset-login-dark-1440.png"), fullPage: true });
    await dark.goto("/reset-password?token=not-a-token");
    await dark.getByText("This reset link is invalid or has expired. Please ask for a new one.").waitFor();
    await dark.screenshot({ path: screenshotPath("password-reset-invalid-dark-1440.png"), fullPage: true });
    await dark.goto("/forgot-password");
    await dark.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await dark.screenshot({ path: screenshotPath("password-reset-forgot-dark-1440.png"), fullPage: true });
  });
});
