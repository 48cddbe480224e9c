import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatExportFileSchema } from "../../src/shared/contracts/chat-transfer.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

// Settings → Your chats: import a ChatGPT conversations.json and see what arrived, export all chats (JSON and
// Markdown) as downloads; the chat header exports one chat.
const h = startHarness();
let fake: FakeProvider;
const chatGptSample = readFileSync(new URL("../fixtures/chatgpt-conversations.json", import.meta.url));
const day = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: ["gpt-4o-mini"], freeModels: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" });
});
afterAll(async () => {
  await fake?.close();
});

async function openChatsTab(page: Page) {
  await page.goto("/settings");
  await page.getByRole("tab", { name: "Your chats" }).click();
  await page.getByRole("button", { name: "Import chats" }).waitFor();
}

async function downloadText(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
}

describe("chat export and import", () => {
  it("imports a ChatGPT export in Settings, shows the result, and exports every chat as JSON and Markdown", async () => {
    const account = await registerViaApi(h, uniqueAccount("mover"));
    const page = await h.newPage();
    await signIn(page, account);
    await openChatsTab(page);
    await page.getByText("Download every saved chat.").waitFor();

    await page
      .locator("#import-chats-file")
      .setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer: chatGptSample });
    const result = page.getByRole("alert").filter({ hasText: "Imported 2 chats." });
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Skipped 1:\s+"Only a system prompt": It has no messages to import\./);
    await page.screenshot({ path: screenshotPath("chat-transfer-settings-1440.png"), fullPage: true });

    const json = await downloadText(page, () => page.getByRole("link", { name: "Export all chats (JSON)" }).click());
    expect(json.name).toBe(`chats-${day()}.json`);
    const file = chatExportFileSchema.parse(JSON.parse(json.text));
    expect(file.chats.map((c) => c.title)).toEqual(["Weekend in Lisbon", "Pumpkin soup"]);

    const md = await downloadText(page, () => page.getByRole("link", { name: "Export all chats (Markdown)" }).click());
    expect(md.name).toBe(`chats-${day()}.md`);
    expect(md.text).toContain("## Weekend in Lisbon");
    expect(md.text).toContain("The Gulbenkian opens on Monday");

    // The imported chats are in the history at once.
    await page.goto("/chat");
    await page
      .getByRole("link", { name: /Weekend in Lisbon/ })
      .first()
      .waitFor();

    // The same file again (say, after an import was cut off): what already arrived is skipped, and says so.
    await openChatsTab(page);
    await page
      .locator("#import-chats-file")
      .setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer: chatGptSample });
    const again = page.getByRole("alert").filter({ hasText: "Imported 0 chats." });
    await again.waitFor();
    expect(await again.innerText()).toMatch(
      /Skipped 3:\s+"Weekend in Lisbon": It is already in your chats, from an earlier import\.\s+"Pumpkin soup": It is already in your chats/,
    );
    await page.screenshot({ path: screenshotPath("chat-transfer-import-again-1440.png"), fullPage: true });
    const titles = await page.evaluate(async () => (await (await fetch("/api/chats")).json()) as { title: string }[]);
    expect(titles.filter((c) => c.title === "Weekend in Lisbon")).toHaveLength(1);
  });

  it("says what is wrong with a bad file and that nothing was imported", async () => {
    const account = await registerViaApi(h, uniqueAccount("mover"));
    const page = await h.newPage({ width: 390, height: 844 });
    await signIn(page, account);
    await openChatsTab(page);
    await page
      .locator("#import-chats-file")
      .setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello": 1}') });
    const failure = page.getByRole("alert").filter({ hasText: "The import failed." });
    await failure.waitFor();
    const text = await failure.innerText();
    expect(text).toContain("This file is neither a chat export of this app");
    // Said once: the server's reason already says that nothing was imported.
    expect(text.match(/nothing was imported/gi)).toHaveLength(1);
    await page.screenshot({ path: screenshotPath("chat-transfer-error-390.png"), fullPage: true });
    const api = new CookieClient(h.app);
    await api.post("/api/login", { username: account.username, password: account.password });
    expect((await api.get("/api/chats")).json()).toEqual([]);
  });

  it("exports the open chat from the chat header, as Markdown and as JSON", async () => {
    const account = await registerViaApi(h, uniqueAccount("mover"));
    const api = new CookieClient(h.app);
    await api.post("/api/login", { username: account.username, password: account.password });
    const imported = await api.request({
      method: "POST",
      url: "/api/chats/import",
      payload: JSON.parse(chatGptSample.toString("utf8")),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const lisbon = (await api.get("/api/chats")).json().find((c: { title: string }) => c.title === "Weekend in Lisbon") as { id: number };

    const page = await h.newPage();
    await signIn(page, account);
    await page.goto(`/chat/${lisbon.id}`);
    await page.getByText("The Gulbenkian opens on Monday").first().waitFor();
    await page.getByRole("button", { name: "Export chat" }).click();
    await page.getByRole("menuitem", { name: "As Markdown" }).waitFor();
    await page.screenshot({ path: screenshotPath("chat-transfer-header-menu-1440.png") });
    const md = await downloadText(page, () => page.getByRole("menuitem", { name: "As Markdown" }).click());
    expect(md.name).toBe(`weekend-in-lisbon-${day()}.md`);
    expect(md.text).toMatch(/^# Weekend in Lisbon\n/);
    expect(md.text).not.toContain("Porto");

    await page.getByRole("button", { name: "Export chat" }).click();
    const json = await downloadText(page, () => page.getByRole("menuitem", { name: "As JSON (all branches)" }).click());
    expect(json.name).toBe(`weekend-in-lisbon-${day()}.json`);
    const file = chatExportFileSchema.parse(JSON.parse(json.text));
    expect(file.chats[0]?.messages).toHaveLength(6);
  });

  it("looks right at 390 px and in dark mode", async () => {
    for (const [name, width, height, dark] of [
      ["chat-transfer-settings-390.png", 390, 844, false],
      ["chat-transfer-settings-390-dark.png", 390, 844, true],
      ["chat-transfer-settings-1440-dark.png", 1440, 900, true],
    ] as const) {
      // A new account each time: an account imports a chat once (the same file again skips it).
      const account = await registerViaApi(h, uniqueAccount("mover"));
      const page = await h.newPage({ width, height });
      if (dark) await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await signIn(page, account);
      await openChatsTab(page);
      await page
        .locator("#import-chats-file")
        .setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer: chatGptSample });
      await page.getByRole("alert").filter({ hasText: "Imported 2 chats." }).waitFor();
      await page.screenshot({ path: screenshotPath(name), fullPage: true });
    }
  });
});
