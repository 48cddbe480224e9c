import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousFindings } from "./support/axe.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

// Decision 056, in the browser: Settings > Developer offers the Files (read) scope, off by default, saying what it
// grants; the Password form asks a person with tokens whether they end with the change (checked by default), saying
// what will happen, and does it. At 1440 and 390 px.

const h = startHarness();

async function makeToken(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Developer" }).click();
  const panel = page.getByRole("tabpanel", { name: "Developer" });
  await panel.getByLabel("Name").fill(name);
  const files = panel.getByRole("checkbox", { name: /^Files \(read\)/ });
  // Off by default, with the words of what it grants.
  expect(await files.isChecked()).toBe(false);
  await panel.getByText("Read your library (files, collections and their passages) and use it in chats", { exact: false }).waitFor();
  if (scopes.includes("files:read")) await files.check();
  await panel.getByRole("button", { name: "Create token" }).click();
  const shown = panel.getByLabel("Your new API token");
  await shown.waitFor();
  const token = await shown.inputValue();
  await panel.getByRole("button", { name: "Done" }).click();
  return token;
}

const status = async (token: string, path: string) =>
  (await fetch(`${h.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;

/** Changes the password, waiting for the toast that says what happened (`said`: its own words, not an earlier toast's). */
async function changePassword(page: Page, current: string, next: string, said: string) {
  // An earlier change's toast goes first (at 390 px it lies over the button).
  await expect.poll(() => page.locator("[data-sonner-toast]").count(), { timeout: 20_000 }).toBe(0);
  await page.getByLabel("Current Password").fill(current);
  await page.getByLabel("New Password").fill(next);
  await page.getByLabel("Confirm Password").fill(next);
  await page.getByRole("button", { name: "Update Password" }).click();
  await page.locator("[data-sonner-toast]", { hasText: said }).first().waitFor();
}

describe("token scopes and the password change", () => {
  it("Files (read) is offered off by default; a change revokes the tokens unless unticked", { timeout: 240_000 }, async () => {
    const account = await registerViaApi(h, uniqueAccount("scope"));
    for (const width of [1440, 390]) {
      const page = await h.newPage({ width, height: 900 });
      await signIn(page, account);
      const chatOnly = await makeToken(page, `chat ${width}`, ["chat"]);
      const withFiles = await makeToken(page, `files ${width}`, ["chat", "files:read"]);
      const panel = page.getByRole("tabpanel", { name: "Developer" });
      await panel
        .getByText(/Chat, Files \(read\) · expires/)
        .first()
        .waitFor();
      await page.screenshot({ path: screenshotPath(`token-files-scope-${width}-light.png`), fullPage: true });
      expect(await status(chatOnly, "/api/files")).toBe(403);
      expect(await status(withFiles, "/api/files")).toBe(200);

      await page.getByRole("tab", { name: "Password" }).click();
      const box = page.getByRole("checkbox", { name: "Also revoke my API tokens" });
      expect(await box.isChecked()).toBe(true);
      await page.getByText("Your 2 API tokens stop working: scripts and apps using them will need a new one.").waitFor();
      expect(await seriousFindings(page), `axe on the Password form at ${width}`).toEqual([]);
      await page.screenshot({ path: screenshotPath(`password-revoke-tokens-${width}-light.png`), fullPage: true });

      // Unticked, it says the tokens keep working, and they do.
      await box.click();
      await page.getByText("Your 2 API tokens keep working. Keep them only if you know where each one is.").waitFor();
      await page.screenshot({ path: screenshotPath(`password-keep-tokens-${width}-light.png`), fullPage: true });
      const kept = `Kept!${width}pass`;
      await changePassword(page, account.password, kept, "changed and your other devices have been signed out.");
      account.password = kept;
      expect(await status(withFiles, "/api/files")).toBe(200);
      expect(await status(chatOnly, "/api/chats")).toBe(200);

      // The form is back to its default (ticked): this change ends them.
      expect(await box.isChecked()).toBe(true);
      const ended = `Ended!${width}pass`;
      await changePassword(page, account.password, ended, "signed out and your API tokens revoked.");
      account.password = ended;
      expect(await status(withFiles, "/api/files")).toBe(401);
      expect(await status(chatOnly, "/api/chats")).toBe(401);
      // No tokens left: the checkbox is not asked any more.
      await expect.poll(() => box.count()).toBe(0);
      await page.close();
    }
  });
});
