// A chat of 2,000 messages (issue 29): the list is virtualised (far fewer than 2,000 messages in the page), opens
// at its newest message, scrolling up (and loading earlier pages) reaches the oldest, and a code block is
// highlighted only once it comes into view.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FIRST_MESSAGE_TEXT, LAST_MESSAGE_TEXT, seedLongChat } from "../helpers/seed-long-chat.js";
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

const messageNodes = (page: Page) => page.locator("[data-message-role]").count();
const log = (page: Page) => page.getByRole("log", { name: "Messages" });
const scrollBox = (page: Page) => log(page).locator("xpath=..");

describe("a chat of 2,000 messages", () => {
  for (const [width, theme] of [
    [1440, "light"],
    [390, "dark"],
  ] as const) {
    it(`opens at the newest message with few message nodes, and scrolling up reaches the oldest (${width} px, ${theme})`, async () => {
      const page = await h.newPage({ width, height: 900 });
      await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
      await signIn(page, member);
      await page.goto(`/chat/${chatId}`);
      const last = page.locator('[data-message-role="user"], [data-message-role="assistant"]', { hasText: LAST_MESSAGE_TEXT });
      await last.waitFor();
      await expect.poll(() => last.isVisible()).toBe(true);
      // The newest page (200 messages) is loaded; only a screenful and a few around it are drawn.
      expect(await messageNodes(page)).toBeLessThan(60);
      await page.screenshot({ path: screenshotPath(`chat-long-newest-${width}-${theme}.png`) });

      // Up to the top, loading each earlier page, until the very first message shows.
      const first = page.locator('[data-message-role="user"]', { hasText: FIRST_MESSAGE_TEXT });
      const earlier = page.getByRole("button", { name: "Load earlier messages" });
      // At the top, each press of "Load earlier messages" adds a page; rows are measured as they are drawn and may
      // move, so the page is asked where things are each time (nothing held across a render).
      for (let pages = 0; pages < 20 && !(await first.isVisible()); pages++) {
        await page.waitForFunction(
          () => {
            const log = document.querySelector('[role="log"][aria-label="Messages"]');
            const box = log?.parentElement;
            if (!box) return false;
            box.scrollTo(0, 0);
            const button = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("Load earlier messages"));
            const top = [...document.querySelectorAll('[data-message-role="user"]')].some((m) => m.textContent?.includes("Message 1 of"));
            if (top) return true;
            if (!button || (button as HTMLButtonElement).disabled) return false;
            const rect = button.getBoundingClientRect();
            if (rect.top < box.getBoundingClientRect().top || rect.bottom > window.innerHeight) return false;
            button.click();
            return true;
          },
          undefined,
          { polling: "raf", timeout: 30_000 },
        );
        await page.waitForFunction(
          () => ![...document.querySelectorAll("button")].some((b) => b.textContent?.includes("Load earlier") && b.disabled),
        );
      }
      await scrollBox(page).evaluate((box) => box.scrollTo(0, 0));
      await expect.poll(() => first.isVisible()).toBe(true);
      expect(await earlier.count()).toBe(0);
      // All 2,000 are loaded now, and still only those in view (and a few around) are in the page.
      expect(await messageNodes(page)).toBeLessThan(60);
      await page.screenshot({ path: screenshotPath(`chat-long-oldest-${width}-${theme}.png`) });
    });
  }

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
