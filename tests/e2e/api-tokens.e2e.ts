import { beforeAll, describe, expect, it } from "vitest";
import { seriousFindings } from "./support/axe.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

// Issue 35: Settings > Developer. A person makes a token, copies it once, a script calls the API with it, the list
// shows when it was last used, and a revoke stops it at once. Checked at 1440 and 390 px, light and dark, with axe.

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
beforeAll(async () => {
  // The first account is the admin.
  admin = await registerViaApi(h, uniqueAccount("admin"));
});

describe("Settings > Developer: API tokens", () => {
  it("makes a token shown once, which a script uses; revoking it stops it", { timeout: 180_000 }, async () => {
    const account = await registerViaApi(h, uniqueAccount("dev"));
    expect(account.role).toBe("user");
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, account);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Developer" }).click();
    const panel = page.getByRole("tabpanel", { name: "Developer" });
    await panel.getByText("No API tokens yet.", { exact: false }).waitFor();
    // The OpenAI-compatible endpoint's base URL (decision 051), ready to copy, and an example that uses it.
    expect(await panel.getByLabel("Base URL").inputValue()).toBe(`${h.baseUrl}/v1`);
    expect(await panel.locator("pre").textContent()).toContain(`curl ${h.baseUrl}/v1/chat/completions`);

    // A token needs a scope: the form says so, with the contract's words, and nothing is made.
    await panel.getByLabel("Name").fill("Nightly export");
    await panel.getByRole("checkbox", { name: /^Chat/ }).uncheck();
    await panel.getByRole("button", { name: "Create token" }).click();
    await panel.getByText("Choose at least one scope").waitFor();

    await panel.getByRole("checkbox", { name: /^Courses \(read\)/ }).check();
    await panel.getByLabel("Expires after").selectOption("90");
    await panel.getByRole("button", { name: "Create token" }).click();
    const shown = panel.getByLabel("Your new API token");
    await shown.waitFor();
    const token = await shown.inputValue();
    expect(token).toMatch(/^lum_/);
    await page.screenshot({ path: screenshotPath("api-tokens-created-1440-light.png") });

    // The script: the token alone, no cookie.
    const courses = await fetch(`${h.baseUrl}/api/courses`, { headers: { authorization: `Bearer ${token}` } });
    expect(courses.status).toBe(200);
    const chats = await fetch(`${h.baseUrl}/api/chats`, { headers: { authorization: `Bearer ${token}` } });
    expect(chats.status).toBe(403);
    const models = await fetch(`${h.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
    expect(models.status).toBe(403);
    expect(((await models.json()) as { error: { code: string } }).error.code).toBe("insufficient_permissions");

    await panel.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => shown.count()).toBe(0);
    await page.reload();
    await page.getByRole("tab", { name: "Developer" }).click();
    const row = panel.getByRole("listitem").filter({ hasText: "Nightly export" });
    await row.getByText(/Courses \(read\) · expires .* · last used/).waitFor();
    // The token itself is never shown again.
    expect(await page.content()).not.toContain(token);

    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const view = await h.newPage({ width, height: 900 });
      if (theme === "dark") await view.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await signIn(view, account);
      await view.goto("/settings");
      await view.getByRole("tab", { name: "Developer" }).click();
      await view.getByText("Nightly export").waitFor();
      expect(await seriousFindings(view), `axe on Settings > Developer at ${width} ${theme}`).toEqual([]);
      await view.screenshot({ path: screenshotPath(`api-tokens-${width}-${theme}.png`), fullPage: true });
      await view.close();
    }

    await row.getByRole("button", { name: "Revoke Nightly export" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await panel.getByText("No API tokens yet.", { exact: false }).waitFor();
    const after = await fetch(`${h.baseUrl}/api/courses`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });

  it("an admin sees every token on API Tokens and revokes one after confirming", { timeout: 120_000 }, async () => {
    const member = await registerViaApi(h, uniqueAccount("member"));
    const made = await h.app.inject({
      method: "POST",
      url: "/api/login",
      payload: { username: member.username, password: member.password },
    });
    const cookie = String(made.headers["set-cookie"]).split(";")[0] ?? "";
    const created = await h.app.inject({
      method: "POST",
      url: "/api/tokens",
      headers: { cookie },
      payload: { name: "Member's sync", expiresInDays: 7, scopes: ["models"] },
    });
    expect(created.statusCode).toBe(201);
    const token = created.json().token as string;

    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, admin);
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "API Tokens" }).click();
    await page.getByRole("heading", { name: "API Tokens", level: 1 }).waitFor();
    const row = page.getByRole("row").filter({ hasText: "Member's sync" });
    await row.getByText(member.username).waitFor();
    expect(await seriousFindings(page), "axe on API Tokens").toEqual([]);
    await page.screenshot({ path: screenshotPath("admin-api-tokens-1440-light.png") });
    await row.getByRole("button", { name: `Revoke ${member.username}'s token Member's sync` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await page.getByText("No API tokens yet.").waitFor();
    const after = await fetch(`${h.baseUrl}/api/ai/platforms`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });
});
