// Edit and branch in the browser (issue 16): edit a sent message inline (Escape cancels), see the new reply, go back
// to the earlier exchange with the "‹ 1 / 2 ›" switcher and forward again; the branch shown survives a reload.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: ["gpt-4o-mini"], freeModels: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" });
  member = await registerViaApi(h, uniqueAccount("brancher"));
});
afterAll(async () => {
  await fake?.close();
});

const composer = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });
const userMessage = (page: Page, text: string) => page.locator('[data-message-role="user"]', { hasText: text });
const reply = (page: Page, text: string) => page.locator('[data-message-role="assistant"]', { hasText: text });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press("Enter");
  await reply(page, `Echo: ${text}`).waitFor();
  await page.getByRole("button", { name: "Send message" }).waitFor();
}

describe("edit and branch", () => {
  for (const [width, theme] of [
    [1440, "light"],
    [390, "dark"],
  ] as const) {
    it(`edits a message, shows the new reply, and switches back and forth between the versions (${width} px, ${theme})`, async () => {
      const page = await h.newPage({ width, height: 900 });
      await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
      await signIn(page, member);
      await page.goto("/chat");
      await composer(page).waitFor();
      await send(page, "Plan a trip to Rome");
      await page.waitForURL(/\/chat\/\d+$/);
      await send(page, "Three days please");

      // Edit opens an inline editor with the text; Escape leaves the message as it was.
      const second = userMessage(page, "Three days please");
      await second.getByRole("button", { name: "Edit message" }).click();
      const editor = page.getByRole("textbox", { name: "Edited message" });
      expect(await editor.inputValue()).toBe("Three days please");
      await editor.press("Escape");
      await editor.waitFor({ state: "detached" });
      await second.getByText("Three days please").waitFor();

      // Edit, empty text cannot be saved, then Save & submit sends the new version.
      await second.getByRole("button", { name: "Edit message" }).click();
      await editor.fill("   ");
      expect(await page.getByRole("button", { name: "Save & submit" }).isDisabled()).toBe(true);
      await page.getByText("Type a message, or cancel.").waitFor();
      await editor.fill("Five days please");
      await page.screenshot({ path: screenshotPath(`chat-branches-editing-${width}-${theme}.png`) });
      await page.getByRole("button", { name: "Save & submit" }).click();
      await reply(page, "Echo: Five days please").waitFor();
      await page.getByRole("button", { name: "Send message" }).waitFor();

      const edited = userMessage(page, "Five days please");
      const versions = edited.getByRole("group", { name: "Versions of this message" });
      await versions.getByText("2 / 2").waitFor();
      expect(await userMessage(page, "Three days please").count()).toBe(0);
      expect(await reply(page, "Echo: Three days please").count()).toBe(0);
      expect(await versions.getByRole("button", { name: "Next version" }).isDisabled()).toBe(true);
      await page.screenshot({ path: screenshotPath(`chat-branches-new-version-${width}-${theme}.png`) });

      // Back to the earlier exchange, and the rest of the conversation follows it.
      await versions.getByRole("button", { name: "Previous version" }).click();
      await reply(page, "Echo: Three days please").waitFor();
      const earlier = userMessage(page, "Three days please").getByRole("group", { name: "Versions of this message" });
      await earlier.getByText("1 / 2").waitFor();
      expect(await reply(page, "Echo: Five days please").count()).toBe(0);
      expect(await earlier.getByRole("button", { name: "Previous version" }).isDisabled()).toBe(true);
      await page.screenshot({ path: screenshotPath(`chat-branches-earlier-version-${width}-${theme}.png`) });

      // The chat remembers the branch shown.
      await page.reload();
      await reply(page, "Echo: Three days please").waitFor();
      expect(await userMessage(page, "Five days please").count()).toBe(0);

      // And forward again.
      await earlier.getByRole("button", { name: "Next version" }).click();
      await reply(page, "Echo: Five days please").waitFor();
      await versions.getByText("2 / 2").waitFor();
      expect(await userMessage(page, "Three days please").count()).toBe(0);
      expect(await userMessage(page, "Plan a trip to Rome").count()).toBe(1);

      // Regenerate adds a version of the reply, with its own switcher.
      await page.getByRole("button", { name: "Regenerate reply" }).click();
      const lastReply = page.locator('[data-message-role="assistant"]').last();
      await lastReply.getByRole("group", { name: "Versions of this message" }).getByText("2 / 2").waitFor();
      await lastReply.getByRole("button", { name: "Previous version" }).click();
      await lastReply.getByRole("group", { name: "Versions of this message" }).getByText("1 / 2").waitFor();
      await page.screenshot({ path: screenshotPath(`chat-branches-reply-versions-${width}-${theme}.png`) });
    });
  }
});
