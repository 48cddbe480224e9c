import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CookieClient } from "../helpers/build-test-app.js";
import { TINY_PNG } from "../helpers/multipart.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";

// The admin gives Mistral a key: the Default Model offers only usable platforms.
const h = startHarness({
  ready: async (harness) => {
    const admin = await registerViaApi(harness, uniqueAccount("admin"));
    const api = new CookieClient(harness.app);
    await api.post("/api/login", { username: admin.username, password: admin.password });
    const platforms = (await api.get("/api/ai-platforms")).json() as { id: number; slug: string }[];
    const mistral = platforms.find((p) => p.slug === "mistral");
    const saved = await api.patch(`/api/admin/ai-platforms/${mistral?.id}`, {
      apiKey: "sk-test-valid-key-123456",
      settings: { models: ["mistral-small"], defaultModel: "mistral-small", freeModels: ["mistral-small"] },
    });
    if (saved.statusCode !== 200) throw new Error(`set up mistral: ${saved.body}`);
  },
});

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

const apiSettings = (page: Page) => page.evaluate(() => fetch("/api/user/settings").then((r) => r.json()));

describe("account settings", () => {
  it("saves the profile and shows the initials, then an uploaded photo, everywhere", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, account);
    await page.goto("/settings");
    await page.getByRole("heading", { name: "Account Settings" }).waitFor();
    // Initials of "Ada Lovelace" in the navigation before any photo.
    await page.getByRole("button", { name: "Account" }).getByText("AL").waitFor();

    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByLabel("Email").fill("not-valid");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please enter a valid email").waitFor();
    await page.getByLabel("Email").fill(`grace.${account.email}`);
    await page.getByRole("button", { name: "Save" }).click();
    await toastText(page, "Profile updated");
    await page.getByRole("button", { name: "Account" }).getByText("GH").waitFor();

    // A text file named .png is refused by the server with its message.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    expect(await toastText(page, "Update failed")).toContain("not a PNG, JPEG or WebP");

    await page.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: TINY_PNG });
    await toastText(page, "Profile updated");
    const navImage = page.getByRole("button", { name: "Account" }).locator("img");
    await navImage.waitFor();
    expect(await navImage.getAttribute("src")).toMatch(/^\/api\/uploads\/[a-f0-9]{32}$/);
    await page.reload();
    await page.getByRole("button", { name: "Account" }).locator("img").waitFor();
  });

  it("changes the password: wrong current refused under the field, then saved", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, account);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "Password" }).click();
    await page.getByLabel("Current Password").fill("Wrong!pass1");
    await page.getByLabel("New Password").fill("Newpass!1");
    await page.getByLabel("Confirm Password").fill("Newpass!2");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel("Confirm Password").fill("Newpass!1");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Current password is incorrect").waitFor();
    await page.getByLabel("Current Password").fill(account.password);
    await page.getByRole("button", { name: "Update Password" }).click();
    await toastText(page, "Password updated");
    const login = await h.app.inject({ method: "POST", url: "/api/login", payload: { username: account.username, password: "Newpass!1" } });
    expect(login.statusCode).toBe(200);
  });

  it("saves each AI preference on its own", async () => {
    const account = await registerViaApi(h);
    const page = await h.newPage();
    await signIn(page, account);
    await page.goto("/settings");
    await page.getByRole("tab", { name: "AI Preferences" }).click();
    await page.getByRole("slider", { name: "Temperature" }).waitFor();

    await page.getByRole("combobox", { name: "Default Model" }).click();
    await page.getByRole("option", { name: "Mistral (platform default)" }).click();
    await toastText(page, "Settings updated");
    expect((await apiSettings(page)).defaultModel).toBe("mistral");

    const temperature = page.getByRole("slider", { name: "Temperature" });
    await temperature.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => (await apiSettings(page)).temperature).toBe("0.8");

    const length = page.getByRole("slider", { name: "Response Length" });
    await length.focus();
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await apiSettings(page)).maxTokens).toBe(768);

    await page.getByRole("switch", { name: "Save Chat History" }).click();
    await expect.poll(async () => (await apiSettings(page)).saveHistory).toBe(false);
    await page.getByRole("switch", { name: "Enable Markdown Rendering" }).click();
    await expect.poll(async () => (await apiSettings(page)).markdownRendering).toBe(false);

    await page.reload();
    await page.getByRole("tab", { name: "AI Preferences" }).click();
    await expect.poll(() => page.getByRole("switch", { name: "Save Chat History" }).getAttribute("aria-checked")).toBe("false");
    expect(await page.getByRole("slider", { name: "Temperature" }).getAttribute("aria-valuenow")).toBe("0.8");
  });
});
