import type { Page } from "playwright-core";
// A chat of 2,000 messages (issue 29): a code block is highlighted only once it comes into view.

import { beforeAll, describe, expect, it } from "vitest";
import { LAST_MESSAGE_TEXT, seedLongChat } from "../helpers/seed-long-chat.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const MESSAGES = 2_000;
let member: Awaited<ReturnType<typeof registerViaApi>>;
let chatId: number;

beforeAll(async () => {
  member = await registerViaApi(h, uniqueAccount("longchat"));
  // A fenced block in every 50th reply: messages 100, 200, ... 1,900.
  chatId = await seedLongChat(h.database, member.id, MESSAGES, 50);
});

const scrollBox = (page: Page) => page.getByRole("log", { name: "Messages" }).locator("xpath=..");

describe("a chat of 2,000 messages", () => {
  it("highlights a code block once it scrolls into view, not while it is drawn out of view", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, member);
    await page.goto(`/chat/${chatId}`);
    await page.locator("[data-message-role]", { hasText: LAST_MESSAGE_TEXT }).waitFor();
    // Reply 1,900 is 100 messages up. Scroll up a little at a time until it is drawn: it then sits among the rows
    // drawn above the view, not yet seen.
    const block = page.locator('[data-message-role="assistant"]', { hasText: "Reply 1900 with code" }).locator("pre code");
    for (let step = 0; step < 400 && (await block.count()) === 0; step++) {
      await scrollBox(page).evaluate((box) => box.scrollBy(0, -100));
    }
    expect(await block.count()).toBe(1);
    expect(await block.isVisible()).toBe(true); // in the page (drawn), above the viewport
    const inViewport = await block.evaluate((el) => {
      const rect = el.getBoundingClientRect();
      return rect.bottom > 0 && rect.top < window.innerHeight;
    });
    expect(inViewport).toBe(false);
    expect(await block.textContent()).toBe("const answer1900 = 42;\n");
    expect(await block.locator(".hljs-keyword").count()).toBe(0);

    // Scrolled up a little at a time until the block is in view (the page finds it afresh each time).
    await page.waitForFunction(
      () => {
        const reply = [...document.querySelectorAll('[data-message-role="assistant"]')].find((m) =>
          m.textContent?.includes("Reply 1900 with"),
        );
        const code = reply?.querySelector("pre code");
        const box = document.querySelector('[role="log"][aria-label="Messages"]')?.parentElement;
        if (!code || !box) return false;
        const rect = code.getBoundingClientRect();
        const boxTop = box.getBoundingClientRect().top + 20;
        if (rect.top > boxTop && rect.bottom < window.innerHeight) return true;
        box.scrollBy(0, rect.top <= boxTop ? -60 : 60);
        return false;
      },
      undefined,
      { polling: "raf", timeout: 30_000 },
    );
    await block.locator(".hljs-keyword", { hasText: "const" }).waitFor();
    expect(await block.textContent()).toBe("const answer1900 = 42;\n");
    await page.screenshot({ path: screenshotPath("chat-long-code-highlighted-1440-light.png") });
  });
});
