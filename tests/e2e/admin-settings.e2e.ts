// Platform Settings and Global AI Prompts (docs/product.md, Admin back office): an admin renames the platform (the header and the tab
// follow), closes registration (the Register tab says so), turns model selection off (the chat has no picker
// and answers with the default model), and creates, edits and deletes a prompt.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let adminApi: CookieClient;
let admin: { username: string; password: string };
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  adminApi = await adminWithStandIn(h, fake, {
    models: ["gpt-4o-mini", "gpt-4o"],
    freeModels: ["gpt-4o-mini", "gpt-4o"],
    defaultModel: "gpt-4o-mini",
  });
  const me = (await adminApi.get("/api/user")).json() as { username: string };
  admin = { username: me.username, password: "Str0ng!pass" };
  member = await registerViaApi(h, uniqueAccount("member"));
});
afterAll(async () => {
  await fake?.close();
});

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

async function openAdminPage(page: Page, entry: string, heading: string) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: entry }).click();
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

const productName = (page: Page) => page.getByRole("banner").getByRole("link").first();

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("admin: Platform Settings", () => {
  it("on a fresh install the default model shown is the platform set up, never openai-gpt4 (not available), at 1440 and 390 px", async () => {
    // Decision 061: the product's default names no platform; the page shows the one chats use and says it follows them.
    for (const width of [1440, 390]) {
      const page = await h.newPage({ width, height: 900 });
      await openAdminPage(page, "Platform Settings", "Platform Settings");
      const select = page.getByRole("combobox", { name: "Default model" });
      await expect.poll(() => select.innerText()).toContain("(platform default)");
      expect(await select.innerText()).not.toContain("not available");
      await page.getByText("New chats use the first AI platform set up, following the platforms, until you choose a model here.").waitFor();
      await select.scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshotPath(`platform-settings-default-model-follows-${width}.png`) });
      await select.click();
      expect(await page.getByRole("option", { name: /not available/ }).count()).toBe(0);
      await page.keyboard.press("Escape");
      await page.context().close();
    }
  });

  it("renames the platform, closes registration and turns model selection off; each takes effect", async () => {
    const page = await h.newPage();
    await openAdminPage(page, "Platform Settings", "Platform Settings");
    await page.getByRole("button", { name: "Save Settings" }).waitFor();
    expect(await productName(page).innerText()).toBe("Lumora");
    // The Email Settings button leads to /admin/email-settings.
    const emailLinks = page.getByRole("link", { name: "Email Settings" });
    await expect.poll(() => emailLinks.count()).toBe(2); // the menu's entry and the page's own button
    const button = emailLinks.nth(1);
    expect(await button.evaluate((link) => link.closest("nav") === null)).toBe(true);
    expect(await button.getAttribute("href")).toBe("/admin/email-settings");

    // The shared rule, in the form.
    const name = page.getByLabel("Platform name");
    await name.fill("   ");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await page.getByText("Platform name is required").waitFor();

    await name.fill("Acme Academy");
    await chooseOption(page, "Default model", "gpt-4o");
    await page.getByRole("switch", { name: "Allow registration" }).click();
    await page.getByRole("switch", { name: "Model selection" }).click();
    await page.getByText("You have unsaved changes.").waitFor();

    // The platform stops offering the chosen model before Save: the server refuses it, the form says why.
    const platforms = (await adminApi.get("/api/ai-platforms")).json() as { id: number; slug: string }[];
    const openai = platforms.find((p) => p.slug === "openai");
    const narrowed = await adminApi.patch(`/api/admin/ai-platforms/${openai?.id}`, { settings: { models: ["gpt-4o-mini"] } });
    expect(narrowed.statusCode).toBe(200);
    await page.getByRole("button", { name: "Save Settings" }).click();
    expect(await toastText(page, "Update failed")).toContain("Choose a model of an AI platform that is set up");
    await page.locator("#platform-default-model-error").getByText("Choose a model of an AI platform that is set up").waitFor();
    expect(await productName(page).innerText()).toBe("Lumora");

    // The form still holds the refused changes: leaving asks first (issue 29), and the admin leaves.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.reload();
    await page.getByRole("button", { name: "Save Settings" }).waitFor();
    await name.fill("Acme Academy");
    await chooseOption(page, "Default model", "gpt-4o-mini");
    await page.getByRole("switch", { name: "Allow registration" }).click();
    await page.getByRole("switch", { name: "Model selection" }).click();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await toastText(page, "Settings updated");
    // Each app page is named, then the live product name (issue 29).
    await page.waitForFunction(() => document.title === "Platform Settings · Admin · Acme Academy");
    expect(await productName(page).innerText()).toBe("Acme Academy");
    expect(await page.getByRole("switch", { name: "Allow registration" }).getAttribute("aria-checked")).toBe("false");
    expect(await page.getByRole("switch", { name: "Model selection" }).getAttribute("aria-checked")).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath("admin-settings-1440.png"), fullPage: true });

    // Saved on the server: a reload shows the same.
    await page.reload();
    expect(await page.getByLabel("Platform name").inputValue()).toBe("Acme Academy");
    expect(await page.getByRole("combobox", { name: "Default model" }).innerText()).toContain("gpt-4o-mini");

    // A visitor: the new name, and the Register tab says registration is closed.
    const visitor = await h.newPage({ width: 390, height: 844 });
    await visitor.goto("/auth?tab=register");
    await visitor.getByText("Registration is currently closed.").waitFor();
    expect(await visitor.getByLabel("Confirm Password").count()).toBe(0);
    await visitor.waitForFunction(() => document.title === "Register · Acme Academy");
    await visitor.getByText("Acme Academy is not taking new sign-ups right now.").waitFor();
    await visitor.screenshot({ path: screenshotPath("admin-settings-register-closed-390.png"), fullPage: true });
    await visitor.getByRole("button", { name: "Go to Login" }).click();
    await visitor.getByRole("button", { name: "Login", exact: true }).waitFor();

    // A member: no model picker in the chat, and the reply comes from the default model.
    const chat = await h.newPage();
    await signIn(chat, member);
    expect(await productName(chat).innerText()).toBe("Acme Academy");
    await chat.goto("/chat");
    const box = chat.getByRole("textbox", { name: "Message" });
    await box.waitFor();
    await chat.getByTitle("Model chosen by the administrator").waitFor();
    expect(await chat.getByRole("combobox", { name: "Model" }).count()).toBe(0);
    await box.fill("Hello model");
    await box.press("Enter");
    await chat.waitForURL(/\/chat\/\d+$/); // the first message creates the chat
    await chat.getByText("Echo: Hello model").waitFor();
    const asked = fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)?.body as { model?: string };
    expect(asked.model).toBe("gpt-4o-mini");

    // The member's own settings say the administrator chose the model.
    await chat.goto("/settings");
    await chat.getByRole("tab", { name: /AI/ }).click();
    await chat.getByText("The administrator has chosen the model for every chat, so this setting does not apply.").waitFor();
  });
});

describe("admin: Global AI Prompts", () => {
  it("creates, edits and deletes prompts, with the product's texts", async () => {
    const page = await h.newPage();
    await openAdminPage(page, "Global AI Prompts", "Global AI Prompts");
    await page.getByText('No AI prompts found. Click "Add New Prompt" to create one.').waitFor();
    const keys = page.getByRole("listitem", { name: "chat-system" });
    await keys.getByText("System prompt of every chat reply", { exact: false }).waitFor();

    // All three fields are required, with the form's messages.
    await page.getByRole("button", { name: "Add New Prompt" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New Prompt" });
    expect(await dialog.getByLabel("Prompt").getAttribute("rows")).toBe("8");
    await dialog.getByRole("button", { name: "Create Prompt" }).click();
    for (const message of ["Key is required", "Description is required", "Prompt is required"]) await dialog.getByText(message).waitFor();

    await dialog.getByLabel("Key").fill("chat-system");
    await dialog.getByText("System prompt of every chat reply", { exact: false }).waitFor();
    await dialog.getByLabel("Description").fill("Every chat reply");
    await dialog.getByLabel("Prompt").fill("You are a friendly tutor for Acme Academy.");
    await dialog.getByRole("button", { name: "Create Prompt" }).click();
    await toastText(page, "AI prompt created successfully");
    await dialog.waitFor({ state: "detached" });
    const row = page.getByRole("row").filter({ hasText: "chat-system" });
    await row.getByText("You are a friendly tutor for Acme Academy.").filter({ visible: true }).waitFor();
    await keys.getByText("Set", { exact: true }).waitFor();

    // Keys are unique: the server's 409 shows in the toast and under Key.
    await page.getByRole("button", { name: "Add New Prompt" }).click();
    await dialog.getByLabel("Key").fill("chat-system");
    await dialog.getByLabel("Description").fill("Again");
    await dialog.getByLabel("Prompt").fill("Again");
    await dialog.getByRole("button", { name: "Create Prompt" }).click();
    expect(await toastText(page, "A prompt with this key already exists")).toContain("Error");
    await dialog.locator("#ai-prompt-key-error").getByText("A prompt with this key already exists").waitFor();

    // A key the product does not read is marked Unused.
    await dialog.getByLabel("Key").fill("welcome-banner");
    await dialog.getByText("Unused: nothing in the product reads this key.").waitFor();
    await dialog.getByRole("button", { name: "Create Prompt" }).click();
    await toastText(page, "AI prompt created successfully");
    await page.getByRole("row").filter({ hasText: "welcome-banner" }).getByText("Unused").waitFor();

    await page.getByRole("button", { name: "Edit chat-system" }).click();
    const edit = page.getByRole("dialog", { name: "Edit AI Prompt" });
    expect(await edit.getByLabel("Key").inputValue()).toBe("chat-system");
    await edit.getByLabel("Prompt").fill("You are a patient tutor. Answer in short paragraphs.");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await toastText(page, "AI prompt updated successfully");
    await row.getByText("You are a patient tutor. Answer in short paragraphs.").filter({ visible: true }).waitFor();
    expect((await adminApi.get("/api/admin/global-ai-prompts")).json()).toContainEqual(
      expect.objectContaining({ key: "chat-system", prompt: "You are a patient tutor. Answer in short paragraphs." }),
    );
    await page.screenshot({ path: screenshotPath("admin-prompts-1440.png"), fullPage: true });

    await page.getByRole("button", { name: "Delete welcome-banner" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete AI prompt?" });
    await confirm
      .getByText(
        'Are you sure you want to delete the "welcome-banner" prompt? Nothing in the product reads this key. This action cannot be undone.',
      )
      .waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("row").filter({ hasText: "welcome-banner" }).waitFor();
    await page.getByRole("button", { name: "Delete welcome-banner" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toastText(page, "AI prompt deleted successfully");
    await page.getByRole("row").filter({ hasText: "welcome-banner" }).waitFor({ state: "detached" });
  });

  it("fits a phone and the dark theme", async () => {
    const phone = await h.newPage({ width: 390, height: 844 });
    await openAdminPage(phone, "Global AI Prompts", "Global AI Prompts");
    await phone.getByRole("row").filter({ hasText: "chat-system" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("admin-prompts-390.png"), fullPage: true });
    await phone.goto("/admin/settings");
    await phone.getByRole("button", { name: "Save Settings" }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath("admin-settings-390.png"), fullPage: true });

    const dark = await h.newPage();
    await dark.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
    await openAdminPage(dark, "Platform Settings", "Platform Settings");
    await dark.getByRole("button", { name: "Save Settings" }).waitFor();
    expect(await dark.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await dark.screenshot({ path: screenshotPath("admin-settings-dark-1440.png"), fullPage: true });
    await dark.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Global AI Prompts" }).click();
    await dark.getByRole("row").filter({ hasText: "chat-system" }).waitFor();
    await dark.getByRole("button", { name: "Edit chat-system" }).click();
    await dark.getByRole("dialog", { name: "Edit AI Prompt" }).waitFor();
    await dark.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    await dark.screenshot({ path: screenshotPath("admin-prompts-dark-1440.png") });
  });
});
