import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_AGAIN } from "../../src/shared/contracts/ai-platforms.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const KEY = "sk-e2e-admin-key-7Hq2Wz9";
let fake: FakeProvider;
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake({ apiKey: KEY });
  // The first account on the empty database becomes the admin.
  admin = await registerViaApi(h, uniqueAccount("admin"));
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

const card = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const keyInput = (scope: Locator) => scope.getByLabel("API key", { exact: true });

async function openAdmin(page: Page) {
  await signIn(page, admin);
  await page.goto("/admin");
  await page.waitForURL("**/admin/users");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "AI Chat Settings" }).click();
  await page.waitForURL("**/admin/ai-platforms");
  await page.getByRole("heading", { name: "AI Chat Settings" }).waitFor();
}

describe("admin: AI Chat Settings", () => {
  it("shows Access Denied to a non-admin and sends a visitor to sign in", async () => {
    expect(admin.role).toBe("admin");
    expect(member.role).toBe("user");
    const visitor = await h.newPage();
    await visitor.goto("/admin/ai-platforms");
    await visitor.waitForURL("**/login?next=%2Fadmin%2Fai-platforms");

    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/admin/ai-platforms");
    await page.getByRole("heading", { name: "Access Denied" }).waitFor();
    await page.getByText("You don't have permission to access this area.").waitFor();
    expect(await page.getByText("AI Chat Settings").count()).toBe(0);
    await page.goto("/admin/anything-else");
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("sets up OpenAI against a stand-in, tests the connection and disables it", async () => {
    const page = await h.newPage();
    await openAdmin(page);
    for (const name of ["OpenAI", "Anthropic Claude", "Deepseek", "Mistral"]) {
      await card(page, name).getByText("Setup Required").waitFor();
    }
    // No key anywhere: the test answers with the server's reason.
    await card(page, "Anthropic Claude").getByRole("button", { name: "Test connection" }).click();
    expect(await toastText(page, "Connection failed")).toContain("API key");

    const openai = card(page, "OpenAI");
    const before = await openai.innerText();
    await openai.getByRole("button", { name: "Edit" }).click();
    await keyInput(openai).fill(KEY);
    expect(await keyInput(openai).getAttribute("type")).toBe("password");
    await openai.getByRole("button", { name: "Show API key" }).click();
    expect(await keyInput(openai).getAttribute("type")).toBe("text");
    expect(await keyInput(openai).inputValue()).toBe(KEY);
    await openai.getByRole("button", { name: "Hide API key" }).click();
    expect(await keyInput(openai).getAttribute("type")).toBe("password");

    // Cancel drops what was typed.
    await openai.getByLabel("Temperature").fill("0.2");
    await openai.getByRole("button", { name: "Cancel" }).click();
    await openai.getByRole("button", { name: "Edit" }).waitFor();
    expect(await openai.innerText()).toBe(before);

    await openai.getByRole("button", { name: "Edit" }).click();
    expect(await keyInput(openai).inputValue()).toBe("");
    await keyInput(openai).fill(KEY);
    await openai.getByLabel("Base URL").fill(fake.url);
    await openai.getByLabel("Models", { exact: true }).fill("gpt-4o-mini, gpt-4o");
    await openai.getByRole("button", { name: "Save" }).click();
    await toastText(page, "Platform updated");
    await openai.getByText("Active", { exact: true }).waitFor();
    await openai.getByText(`Key: sk-...${KEY.slice(-4)}`).waitFor();
    await openai.getByText(fake.url).waitFor();
    expect(await page.content()).not.toContain(KEY);
    await page.reload();
    await card(page, "OpenAI").getByText("Active", { exact: true }).waitFor();
    expect(await page.content()).not.toContain(KEY);

    await openai.getByRole("button", { name: "Test connection" }).click();
    expect(await toastText(page, "Connection works")).toMatch(/gpt-4o-mini answered in \d+ ms/);
    const call = fake.requests.find((r) => r.path.endsWith("/chat/completions"));
    expect(call?.headers.authorization).toBe(`Bearer ${KEY}`);

    // Another address for the stored key asks for the key again, under its field, and saves nothing (decision 063).
    await openai.getByRole("button", { name: "Edit" }).click();
    await openai.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
    await openai.getByRole("button", { name: "Save" }).click();
    await openai.getByText(API_KEY_AGAIN).waitFor();
    // The key's field, above the fold of a long form, takes the focus and so comes into view.
    await expect.poll(() => keyInput(openai).evaluate((input) => input === document.activeElement)).toBe(true);
    await page.screenshot({ path: screenshotPath("admin-ai-platforms-key-again.png") });
    await openai.getByRole("button", { name: "Cancel" }).click();
    await openai.getByText(fake.url).waitFor();

    await openai.getByRole("button", { name: "Disable" }).click();
    await toastText(page, "Platform disabled");
    const disabled = openai.getByRole("button", { name: "Disabled" });
    await disabled.waitFor();
    expect(await disabled.isDisabled()).toBe(true);
    await openai.getByText("Setup Required").waitFor();
  });

  it("keeps a failed connection test on the card instead of Active, says what failed, and clears it with a new key", async () => {
    const page = await h.newPage();
    await openAdmin(page);
    const deepseek = card(page, "Deepseek");
    await deepseek.getByRole("button", { name: "Edit" }).click();
    await keyInput(deepseek).fill("sk-e2e-wrong-key-000000");
    await deepseek.getByLabel("Base URL").fill(fake.url);
    await deepseek.getByLabel("Models", { exact: true }).fill("deepseek-chat");
    await deepseek.getByRole("button", { name: "Save" }).click();
    await toastText(page, "Platform updated");
    await deepseek.getByText("Active", { exact: true }).waitFor();
    expect(await deepseek.getByTestId("platform-last-test").count()).toBe(0);

    await deepseek.getByRole("button", { name: "Test connection" }).click();
    const toast = await toastText(page, "Connection failed");
    // The admin is on AI Chat Settings already: the message says what to check here, never to go there.
    expect(toast).toContain("Deepseek refused the API key. Check the API key, then test again.");
    expect(toast).not.toContain("AI Chat Settings");
    await deepseek.getByText("Test Failed", { exact: true }).waitFor();
    expect(await deepseek.getByText("Active", { exact: true }).count()).toBe(0);
    const result = deepseek.getByTestId("platform-last-test");
    await result.getByText("Last test failed").waitFor();
    expect(await result.innerText()).toContain("Deepseek refused the API key. Check the API key, then test again.");
    expect(await result.locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Kept by the server: still there after a reload, at every width and in both themes.
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const view = await h.newPage({ width, height: 900 });
      if (theme === "dark") await view.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await openAdmin(view);
      const again = card(view, "Deepseek");
      await again.getByText("Test Failed", { exact: true }).waitFor();
      await again.getByTestId("platform-last-test").getByText("Last test failed").waitFor();
      await again.scrollIntoViewIfNeeded();
      await again.screenshot({ path: screenshotPath(`admin-ai-test-failed-${width}-${theme}.png`) });
      await view.close();
    }

    // A working key: the old result no longer speaks for the platform; a new test that passes is shown as such.
    await deepseek.getByRole("button", { name: "Edit" }).click();
    await keyInput(deepseek).fill(KEY);
    await deepseek.getByRole("button", { name: "Save" }).click();
    await toastText(page, "Platform updated");
    await deepseek.getByText("Active", { exact: true }).waitFor();
    expect(await deepseek.getByTestId("platform-last-test").count()).toBe(0);
    await deepseek.getByRole("button", { name: "Test connection" }).click();
    await toastText(page, "Connection works");
    await deepseek.getByTestId("platform-last-test").getByText("Last test passed").waitFor();
    expect(await deepseek.getByTestId("platform-last-test").innerText()).toMatch(/deepseek-chat answered in \d+ ms/);
    await deepseek.getByText("Active", { exact: true }).waitFor();
  });

  it("creates a platform, deriving the slug and checking the fields", async () => {
    const page = await h.newPage();
    await openAdmin(page);
    await page.getByRole("button", { name: "Add Platform" }).click();
    const form = card(page, "Add a platform");
    await form.getByLabel("Name").fill("My Local LLM");
    expect(await form.getByLabel("Slug").inputValue()).toBe("my-local-llm");
    await form.getByLabel("Base URL").fill(fake.url);
    await form.getByLabel("Models", { exact: true }).fill("llama3, qwen2");
    await form.getByLabel("Temperature").fill("3");
    await form.getByRole("button", { name: "Create Platform" }).click();
    await form.getByText("Temperature must be between 0 and 1").waitFor();
    await form.getByLabel("Temperature").fill("0.5");
    await form.getByRole("button", { name: "Create Platform" }).click();
    await toastText(page, "Platform created");
    const created = card(page, "My Local LLM");
    await created.getByText("my-local-llm").waitFor();
    await created.getByText("No API key").waitFor();

    // The same slug again: the server's 409 shows under Slug.
    await page.getByRole("button", { name: "Add Platform" }).click();
    await form.getByLabel("Name").fill("My Local LLM");
    await form.getByRole("button", { name: "Create Platform" }).click();
    await toastText(page, "Error creating platform");
    expect(await form.locator("#new-platform-slug-error").innerText()).not.toBe("");
  });

  it("offers OpenAI's Responses API for an OpenAI platform only, and tests the connection over it", async () => {
    const page = await h.newPage();
    await openAdmin(page);
    await page.getByRole("button", { name: "Add Platform" }).click();
    const form = card(page, "Add a platform");
    // An OpenAI-compatible server has no choice of API.
    expect(await form.getByLabel("API", { exact: true }).count()).toBe(0);
    await form.getByLabel("Kind").click();
    await page.getByRole("option", { name: "OpenAI", exact: true }).click();
    const api = form.getByLabel("API", { exact: true });
    await api.waitFor();
    expect(await api.innerText()).toContain("Chat Completions");
    await api.click();
    await page.getByRole("option", { name: "Responses" }).click();
    expect(await api.innerText()).toContain("Responses");
    await form.getByLabel("Name").fill("OpenAI Responses");
    await keyInput(form).fill(KEY);
    await form.getByLabel("Base URL").fill(fake.url);
    await form.getByLabel("Models", { exact: true }).fill("gpt-4o-mini");
    await form.getByRole("button", { name: "Create Platform" }).click();
    await toastText(page, "Platform created");
    const created = card(page, "OpenAI Responses");
    await created.getByText("Responses", { exact: true }).waitFor();

    await created.getByRole("button", { name: "Test connection" }).click();
    expect(await toastText(page, "Connection works")).toMatch(/gpt-4o-mini answered in \d+ ms/);
    expect(fake.requests.at(-1)?.path).toBe("/v1/responses");

    // The edit form shows the choice, at every width and in both themes.
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const view = await h.newPage({ width, height: 900 });
      if (theme === "dark") await view.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await openAdmin(view);
      const editing = card(view, "OpenAI Responses");
      await editing.getByRole("button", { name: "Edit" }).click();
      await editing.getByLabel("API", { exact: true }).waitFor();
      expect(await editing.getByLabel("API", { exact: true }).innerText()).toContain("Responses");
      await editing.scrollIntoViewIfNeeded();
      await editing.screenshot({ path: screenshotPath(`admin-ai-api-choice-${width}-${theme}.png`) });
      await view.close();
    }

    // Back to Chat Completions: saved, shown, and the next test goes to /chat/completions.
    await created.getByRole("button", { name: "Edit" }).click();
    await created.getByLabel("API", { exact: true }).click();
    await page.getByRole("option", { name: "Chat Completions" }).click();
    await created.getByRole("button", { name: "Save" }).click();
    await toastText(page, "Platform updated");
    await created.getByText("Chat Completions", { exact: true }).waitFor();
    await created.getByRole("button", { name: "Test connection" }).click();
    await expect.poll(() => fake.requests.at(-1)?.path, { timeout: 10_000 }).toBe("/v1/chat/completions");
  });

  it("starts with the admin menu collapsed below 1024 px", async () => {
    const page = await h.newPage({ width: 800, height: 900 });
    await openAdmin(page);
    await page.getByRole("button", { name: "Expand menu" }).click();
    await page.getByRole("navigation", { name: "Admin" }).getByText("AI Chat Settings").waitFor();
    await page.getByRole("button", { name: "Collapse menu" }).waitFor();

    const wide = await h.newPage({ width: 1440, height: 900 });
    await openAdmin(wide);
    await wide.getByRole("button", { name: "Collapse menu" }).waitFor();
    await wide.screenshot({ path: screenshotPath("admin-ai-1440.png"), fullPage: true });
  });
});
