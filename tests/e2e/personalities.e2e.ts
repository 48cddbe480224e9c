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

const INSTRUCTIONS = "Always answer like a ship's captain and end with Arr.";
const UPGRADE = "Get Early Access to unlock it.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  adminApi = await adminWithStandIn(h, fake, {
    models: ["small-model", "big-model"],
    freeModels: ["small-model"],
    defaultModel: "small-model",
  });
});
afterAll(async () => {
  await fake?.close();
});

async function setPlan(id: number, planType: "free" | "earlyAccess") {
  const changed = await adminApi.patch(`/api/admin/users/${id}`, { planType });
  expect(changed.statusCode, changed.body).toBe(200);
}

async function earlyAccessUser() {
  const account = await registerViaApi(h, uniqueAccount("early"));
  await setPlan(account.id, "earlyAccess");
  return account;
}

async function toastText(page: Page, title: string) {
  const toast = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await toast.waitFor();
  return toast.innerText();
}

const personalityButton = (page: Page) => page.getByRole("button", { name: /^Personality:/ });
const lastReply = (page: Page) => page.locator('[data-message-role="assistant"]').last();

async function openNewChat(page: Page) {
  await page.goto("/chat"); // stored when its first message is sent
  await page.getByRole("textbox", { name: "Message" }).waitFor();
}

/** Fills the New Personality dialog, first showing the validation message for an empty name. */
async function createPersonality(page: Page, name: string) {
  await page.getByRole("button", { name: "New Personality" }).click();
  const dialog = page.getByRole("dialog", { name: "New personality" });
  await dialog.getByRole("button", { name: "Create personality" }).click();
  await dialog.getByText("Name is required").waitFor();
  await dialog.getByText("Instructions are required").waitFor();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Description", { exact: true }).fill("Explains things with sea stories.");
  await dialog.getByLabel("Tone", { exact: true }).fill("Socratic");
  await dialog.getByLabel("Instructions", { exact: true }).fill(INSTRUCTIONS);
  await dialog.getByRole("slider", { name: "Temperature" }).focus();
  await page.keyboard.press("ArrowLeft");
  await dialog.getByRole("combobox", { name: "Preferred model" }).click();
  await page.getByRole("option", { name: "openai/big-model" }).click();
  await dialog.getByRole("button", { name: "Create personality" }).click();
  await toastText(page, "Personality created");
  await dialog.waitFor({ state: "detached" });
}

describe("training personalities", () => {
  it("an Early Access user creates one, picks it in a chat, and the reply speaks as it", async () => {
    const account = await earlyAccessUser();
    const page = await h.newPage();
    await signIn(page, account);
    await page.getByRole("button", { name: /^Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Personalities" }).click();
    await page.waitForURL("**/personalities");
    await page.getByRole("heading", { name: "Training Personalities" }).waitFor();
    await page.getByText("No personalities yet. Create one to give the assistant a role, a tone and instructions.").waitFor();

    await createPersonality(page, "Captain Tutor");
    const card = page.getByRole("region", { name: "Captain Tutor" });
    await card.getByText("Socratic").waitFor();
    await card.getByText("Explains things with sea stories.").waitFor();
    expect(await card.innerText()).toMatch(/0\.6[\s\S]*1024 tokens[\s\S]*OpenAI · big-model/);

    await card.getByRole("button", { name: "Edit Captain Tutor" }).click();
    const edit = page.getByRole("dialog", { name: "Edit personality" });
    expect(await edit.getByLabel("Instructions", { exact: true }).inputValue()).toBe(INSTRUCTIONS);
    await edit.getByLabel("Description", { exact: true }).fill("Explains things with stories from the sea.");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await toastText(page, "Personality updated");
    await card.getByText("Explains things with stories from the sea.").waitFor();
    await page.screenshot({ path: screenshotPath("personalities-1440.png"), fullPage: true });

    // In a chat: pick it in the header; the chat moves to its preferred model.
    await openNewChat(page);
    expect(await page.getByRole("combobox", { name: "Model" }).innerText()).toContain("small-model");
    await personalityButton(page).click();
    await page.getByRole("menuitemradio", { name: "Default assistant" }).waitFor();
    await page.getByRole("menuitemradio", { name: "Captain Tutor" }).click();
    await page.getByRole("button", { name: "Personality: Captain Tutor" }).waitFor();
    await expect.poll(() => page.getByRole("combobox", { name: "Model" }).innerText()).toContain("big-model");

    const asked = fake.requests.length;
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("How do tides work?");
    await box.press("Enter");
    await lastReply(page).getByText("Echo: How do tides work?").waitFor();
    await lastReply(page).getByText("Captain Tutor", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Send message" }).waitFor();
    const sent = fake.requests.slice(asked).find((r) => r.path.endsWith("/chat/completions"))?.body as {
      model: string;
      temperature: number;
      messages: { role: string; content: string }[];
    };
    expect(sent.model).toBe("big-model");
    expect(sent.temperature).toBeCloseTo(0.6);
    const system = sent.messages.find((m) => m.role === "system");
    expect(system?.content).toContain(INSTRUCTIONS);

    // The reload keeps the choice; "Manage personalities..." goes to the page; deleting asks first.
    await page.reload();
    await page.getByRole("button", { name: "Personality: Captain Tutor" }).click();
    await page.getByRole("menuitem", { name: "Manage personalities..." }).click();
    await page.waitForURL("**/personalities");
    await page.getByRole("button", { name: "Delete Captain Tutor" }).click();
    await page.getByText("Delete this personality? Chats that use it will go back to the default assistant.").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await toastText(page, "Personality deleted");
    await page.getByText("No personalities yet.", { exact: false }).waitFor();

    await page.goto("/settings");
    await page.getByText("All AI models, training personalities and AI course generation.").waitFor();
    expect(await page.getByRole("region", { name: /Plan:/ }).innerText()).toContain("Early Access");
  });

  it("a free user sees what is locked and how to get it, and never asks for personalities", async () => {
    const account = await registerViaApi(h, uniqueAccount("free"));
    const page = await h.newPage();
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, account);

    await openNewChat(page);
    await page.getByRole("combobox", { name: "Model" }).click();
    const locked = page.getByRole("option", { name: "big-model" });
    expect(await locked.getAttribute("aria-disabled")).toBe("true");
    await page.getByRole("listbox").getByText("Needs the Early Access plan").waitFor();
    await page.keyboard.press("Escape");

    await personalityButton(page).click();
    const menu = page.getByRole("menu");
    await menu.getByText("Personalities need Early Access").waitFor();
    await menu.getByText(UPGRADE, { exact: false }).waitFor();
    await page.screenshot({ path: screenshotPath("personalities-chat-free-1440.png") });
    await page.getByRole("menuitem", { name: "About personalities..." }).click();
    await page.waitForURL("**/personalities");
    await page.getByText("Training personalities are part of the Early Access plan.").waitFor();
    await page.getByText(UPGRADE).waitFor();
    await page.getByRole("heading", { name: "Socratic Tutor" }).waitFor();
    expect(await page.getByRole("button", { name: "New Personality" }).count()).toBe(0);

    await page.goto("/settings");
    const plan = page.getByRole("region", { name: /Plan:/ });
    await plan.getByText("Free", { exact: true }).waitFor();
    expect(await plan.innerText()).toContain(
      "Basic chat with the free-tier models. Get Early Access for every AI model, training personalities and AI course generation.",
    );
    expect(asked.filter((path) => path.startsWith("/api/personalities"))).toEqual([]);
  });

  it("shows the locked page when the plan ends while the page is open, and works at 375 px", async () => {
    const account = await earlyAccessUser();
    const page = await h.newPage({ width: 375, height: 812 });
    await signIn(page, account);
    await page.goto("/personalities");
    await createPersonality(page, "Pocket Coach");
    await page.getByRole("region", { name: "Pocket Coach" }).waitFor();
    await page.screenshot({ path: screenshotPath("personalities-375.png"), fullPage: true });

    await openNewChat(page);
    await personalityButton(page).click();
    await page.getByRole("menuitemradio", { name: "Pocket Coach" }).click();
    await page.getByRole("button", { name: "Personality: Pocket Coach" }).waitFor();
    await page.screenshot({ path: screenshotPath("personalities-chat-375.png") });

    await page.goto("/personalities");
    await page.getByRole("region", { name: "Pocket Coach" }).waitFor();
    await setPlan(account.id, "free");
    await page.getByRole("button", { name: "New Personality" }).click();
    const dialog = page.getByRole("dialog", { name: "New personality" });
    await dialog.getByLabel("Name", { exact: true }).fill("Too late");
    await dialog.getByLabel("Instructions", { exact: true }).fill("Anything.");
    await dialog.getByRole("button", { name: "Create personality" }).click();
    expect(await toastText(page, "Error")).toContain("Training personalities need the Early Access plan.");
    await page.getByText("Training personalities are part of the Early Access plan.").waitFor();
    expect(await page.getByRole("button", { name: "New Personality" }).count()).toBe(0);
  });
});
