import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { shootViews } from "./support/screenshot-path.js";

// Decision 055 in the chat: a reply that called search_files shows the [n] of the passages the tool found as source
// chips, live while the reply streams and after a reload, and a chip opens the passage in the side panel. The provider
// stand-in calls the tool the message names (`#tool=search_files{json}`) and answers with what the tool gave it.
const h = startHarness();
let fake: FakeProvider;
const MODEL = "gpt-4o-mini";
const PASSAGE =
  "The chloroplast turns light into sugar inside the leaf. Its green pigment, chlorophyll, catches red and blue light " +
  "and lets the green go, which is why a summer leaf looks green to us until autumn breaks the pigment down again.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: [MODEL], freeModels: [MODEL], defaultModel: MODEL });
});
afterAll(async () => {
  await fake?.close();
});

const box = (page: Page) => page.getByRole("textbox", { name: "Message" });
const lastReply = (page: Page) => page.locator('[data-message-role="assistant"]').last();
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const stopButton = (page: Page) => page.getByRole("button", { name: "Stop generating" });

/** A page whose theme follows the system's, so a screenshot can be taken light and dark without a reload. */
async function newPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

describe("search_files passages as citations", () => {
  it("a reply that called search_files shows a chip for the passage, live and after a reload, that opens it", async () => {
    const account = await registerViaApi(h, uniqueAccount("toolcite"));
    const api = await apiAs(h, account);
    // A file of the member's library, not attached to any message: only the tool finds it.
    const upload = await api.request({
      method: "POST",
      url: "/api/files",
      ...multipartFile("file", "leaves.md", "text/markdown", new TextEncoder().encode(`# Leaves\n\n${PASSAGE}\n`)),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    expect((await settledFile(api, (upload.json() as { id: number }).id)).status).toBe("ready");
    const chatId = ((await api.post("/api/chats", {})).json() as { id: number }).id;
    expect((await api.patch(`/api/chats/${chatId}`, { tools: ["builtin:search_files"] })).statusCode).toBe(200);

    const page = await newPage();
    await signIn(page, account);
    await page.goto(`/chat/${chatId}`);
    await box(page).waitFor();
    // Slow pieces: the reply's text (the passage, repeated by the stand-in) streams for a few seconds.
    fake.setChunkDelay(250);
    try {
      await box(page).fill('What do leaves do? #tool=search_files{"query":"chloroplast"}');
      await expect.poll(() => sendButton(page).isEnabled(), { timeout: 20_000 }).toBe(true);
      await box(page).press("Enter");
      const reply = lastReply(page);
      const chip = reply.getByRole("button", { name: "Source 1: leaves.md" });
      // Live: the chip is there while the reply is still being written.
      await chip.waitFor({ timeout: 20_000 });
      expect(await stopButton(page).isVisible()).toBe(true);
      await chip.click();
      const panel = page.getByRole("dialog", { name: "Source 1" });
      await panel.getByLabel("Passage").getByText("chlorophyll", { exact: false }).waitFor();
      await page.keyboard.press("Escape");
      await panel.waitFor({ state: "detached" });
      await sendButton(page).waitFor({ timeout: 30_000 });
    } finally {
      fake.setChunkDelay(15);
    }

    // After a reload: the stored citation, the Sources row, the panel with the passage and the download.
    await page.reload();
    const reply = lastReply(page);
    const chip = reply.getByRole("button", { name: "Source 1: leaves.md" });
    await chip.waitFor();
    await reply.locator("[data-sources]").getByRole("button", { name: "leaves.md" }).waitFor();
    await shootViews(page, "chat-tool-citations-reply");
    await chip.click();
    const panel = page.getByRole("dialog", { name: "Source 1" });
    await panel.getByLabel("Passage").getByText("chlorophyll", { exact: false }).waitFor();
    expect(await panel.getByRole("link", { name: "Download leaves.md" }).getAttribute("href")).toMatch(/^\/api\/files\/\d+\/content$/);
    await shootViews(page, "chat-tool-citations-panel");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  });
});
