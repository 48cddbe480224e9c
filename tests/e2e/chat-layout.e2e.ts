// Issue 16, "a chat screen as good as the best" and "keyboard shortcuts": the chat fills the viewport under the top
// bar with a collapsible (remembered) history rail, replies as full-width text with their model and time, a model
// picker grouped by provider with readable names, Chat in the top nav, and shortcuts that never steal a text field's keys.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let adminApi: CookieClient;
let member: Awaited<ReturnType<typeof registerViaApi>>;

/** SHOTS_DIR puts this walk's screenshots where a reviewer asked for them; else the house folder. */
const shot = (name: string) => (process.env.SHOTS_DIR ? path.join(process.env.SHOTS_DIR, name) : screenshotPath(name));

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  // OpenAI: two free models, gpt-4o locked on the free plan. A second, OpenAI-compatible platform with a model
  // the catalog does not know.
  adminApi = await adminWithStandIn(h, fake, {
    models: ["gpt-4o-mini", "gpt-4o", "o3-mini"],
    freeModels: ["gpt-4o-mini", "o3-mini"],
    defaultModel: "gpt-4o-mini",
  });
  const local = await adminApi.post("/api/admin/ai-platforms", {
    name: "Local Llama",
    slug: "local-llama",
    kind: "openai-compatible",
    baseUrl: fake.url,
    settings: {
      models: ["llama-3.1-8b-local"],
      defaultModel: "llama-3.1-8b-local",
      freeModels: ["llama-3.1-8b-local"],
      temperature: 0.7,
      maxTokens: 1024,
    },
  });
  expect(local.statusCode, local.body).toBe(201);
  member = await registerViaApi(h);
});
afterAll(async () => {
  await fake?.close();
});

const history = (page: Page) => page.getByRole("complementary", { name: "Chat history" });
const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
const lastReply = (page: Page) => page.locator('[data-message-role="assistant"]').last();
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null);

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press("Enter");
}
async function waitForReplyEnd(page: Page) {
  await page.getByRole("button", { name: "Send message" }).waitFor();
}
async function openChatWithReply(page: Page, text: string) {
  await page.goto("/chat");
  await composer(page).waitFor();
  await send(page, text);
  await page.waitForURL(/\/chat\/\d+$/);
  await lastReply(page).getByText(`Echo: ${text}`).waitFor();
  await waitForReplyEnd(page);
}
/** Focus on nothing in particular (the page itself), as after a click on empty space. */
async function blur(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

describe("chat layout", () => {
  it("fills the viewport under the top bar: rail, centred column, full-width replies with model and time, Chat in the nav", async () => {
    for (const theme of ["light", "dark"] as const) {
      const page = await h.newPage({ width: 1440, height: 900 });
      await page.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
      await signIn(page, member);
      await openChatWithReply(page, `Hello in ${theme}`);
      await send(page, "#long");
      await waitForReplyEnd(page);
      await lastReply(page).locator("pre code").first().waitFor();

      // The whole width under the 64 px bar: no page padding, no bordered box, no 1280 px cap.
      const frame = await page.getByRole("region", { name: "Chat", exact: true }).boundingBox();
      const rail = await history(page).boundingBox();
      expect(rail).toMatchObject({ x: 0, y: 64 });
      expect(frame!.x).toBe(rail!.width);
      expect(frame!.x + frame!.width).toBe(1440);
      expect(frame!.y + frame!.height).toBe(900);
      // The conversation is centred with a readable width; a reply uses all of it, with no bubble behind it.
      const column = await page.getByRole("log", { name: "Messages" }).boundingBox();
      expect(column!.width).toBeLessThanOrEqual(768);
      // (within a scrollbar's width)
      expect(Math.abs(column!.x - frame!.x - (frame!.width - column!.width) / 2)).toBeLessThan(10);
      const reply = lastReply(page);
      const replyBox = await reply.boundingBox();
      expect(replyBox!.width).toBeGreaterThan(column!.width - 60);
      const shaded = await reply.evaluate((article) =>
        [article, ...article.querySelectorAll(":scope > div, :scope > div > div")].some(
          (node) => getComputedStyle(node).backgroundColor !== "rgba(0, 0, 0, 0)",
        ),
      );
      expect(shaded).toBe(false);
      // The user's message is a compact bubble on the right, then the avatar or initials (docs/product.md, Chat) at the column's edge.
      const mine = page.locator('[data-message-role="user"]').first();
      const bubble = await mine.locator("div.rounded-3xl").boundingBox();
      const avatar = await mine.getByLabel("Ada Lovelace").boundingBox();
      expect(avatar!.x + avatar!.width).toBeGreaterThan(column!.x + column!.width - 40); // within the column's padding
      expect(avatar!.x + avatar!.width).toBeLessThanOrEqual(column!.x + column!.width);
      expect(bubble!.x + bubble!.width).toBeLessThanOrEqual(avatar!.x);
      expect(bubble!.x + bubble!.width).toBeGreaterThan(avatar!.x - 20);
      expect(bubble!.width).toBeLessThan(column!.width * 0.75);
      // Each reply names its model and its time, the full date in the tooltip.
      const meta = reply.locator("[data-reply-meta]");
      expect(await meta.innerText()).toMatch(/GPT-4o mini\s*·\s*just now/);
      const title = await meta.locator("time").getAttribute("title");
      expect(title).toContain(String(new Date().getFullYear()));
      expect(title).toMatch(/\d:\d\d/);

      // Chat in the top nav, marked as the current page on /chat routes only.
      const nav = page.getByRole("navigation", { name: "Main" });
      expect(await nav.getByRole("link", { name: "Chat" }).getAttribute("aria-current")).toBe("page");
      await page.screenshot({ path: shot(`chat-layout-1440-${theme}.png`) });
      await page
        .locator('[data-message-role="user"]')
        .first()
        .evaluate((element) => element.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: shot(`chat-layout-1440-${theme}-top.png`) });
      await nav.getByRole("link", { name: "Dashboard", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(await nav.getByRole("link", { name: "Chat" }).getAttribute("aria-current")).toBeNull();
      await nav.getByRole("link", { name: "Chat" }).click();
      await page.waitForURL((url) => url.pathname === "/chat");
      await composer(page).waitFor();

      // A phone: the history is a sheet, the message box sits at the bottom, nothing scrolls sideways.
      const phone = await h.newPage({ width: 390, height: 844 });
      await phone.addInitScript((value) => localStorage.setItem("ui-theme", value), theme);
      await signIn(phone, member);
      await phone.goto("/chat");
      await phone.getByRole("button", { name: "History" }).click();
      const sheet = phone.getByRole("dialog", { name: "Chat history" });
      await sheet.getByRole("link", { name: new RegExp(`Hello in ${theme}`) }).click();
      await sheet.waitFor({ state: "detached" });
      await lastReply(phone).locator("pre code").first().waitFor();
      expect(await history(phone).isVisible()).toBe(false);
      const box = await composer(phone).boundingBox();
      expect(844 - (box!.y + box!.height)).toBeLessThan(40);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(await lastReply(phone).locator("[data-reply-meta]").innerText()).toContain("GPT-4o mini");
      await phone.screenshot({ path: shot(`chat-layout-390-${theme}.png`) });
      await phone
        .locator('[data-message-role="user"]')
        .first()
        .evaluate((element) => element.scrollIntoView({ block: "start" }));
      await phone.screenshot({ path: shot(`chat-layout-390-${theme}-top.png`) });
      await phone.getByRole("button", { name: "Open menu" }).click();
      const menu = phone.getByRole("dialog", { name: "Navigation" });
      expect(await menu.getByRole("link", { name: "Chat" }).getAttribute("aria-current")).toBe("page");
      await phone.screenshot({ path: shot(`chat-layout-390-${theme}-menu.png`) });
    }
  });

  it("collapses the history rail with its button, and keeps it collapsed after a reload", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, member);
    await page.goto("/chat");
    await history(page).waitFor();
    const open = (await page.getByRole("region", { name: "Chat", exact: true }).boundingBox())!.width;
    await page.getByRole("button", { name: "Hide chat history" }).click();
    await history(page).waitFor({ state: "detached" });
    expect((await page.getByRole("region", { name: "Chat", exact: true }).boundingBox())!.width).toBe(1440);
    expect(open).toBeLessThan(1440);
    await page.screenshot({ path: shot("chat-layout-1440-rail-collapsed.png") });

    await page.reload();
    await composer(page).waitFor();
    expect(await history(page).count()).toBe(0);
    await page.getByRole("button", { name: "Show chat history" }).click();
    await history(page).waitFor();
    await page.reload();
    await history(page).getByRole("button", { name: "New Chat" }).waitFor();
    expect(await page.getByRole("button", { name: "Hide chat history" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("groups the model picker by provider, with readable names, descriptions and locked models", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, member);
    await page.goto("/chat");
    const picker = page.getByRole("combobox", { name: "Model" });
    await expect.poll(() => picker.innerText()).toBe("GPT-4o mini");
    await picker.click();
    const list = page.getByRole("listbox");
    // The list's code loads on the first press (decision 021): it opens a moment later.
    await list.waitFor();
    const groups = list.getByRole("group");
    expect(await groups.count()).toBe(2);
    await groups.nth(0).getByText("OpenAI", { exact: true }).waitFor();
    await groups.nth(1).getByText("Local Llama", { exact: true }).waitFor();
    const mini = groups.nth(0).getByRole("option", { name: "GPT-4o mini" });
    expect(await mini.innerText()).toContain("Quick and low-cost for everyday chat");
    expect(await mini.getAttribute("aria-selected")).toBe("true");
    await groups.nth(0).getByRole("option", { name: "o3-mini" }).getByText("Fast reasoning", { exact: false }).waitFor();
    // Locked on the free plan: shown, disabled, with the reason.
    const locked = groups.nth(0).getByRole("option", { name: "GPT-4o", exact: true });
    expect(await locked.getAttribute("aria-disabled")).toBe("true");
    await groups.nth(0).getByText("Early Access", { exact: false }).first().waitFor();
    // A model the catalog does not know keeps its id and has no description.
    const unknown = groups.nth(1).getByRole("option", { name: "llama-3.1-8b-local" });
    expect((await unknown.innerText()).trim()).toBe("llama-3.1-8b-local");
    await page.screenshot({ path: shot("chat-layout-model-picker-1440.png") });

    // By keyboard: down to the next model, Enter chooses it; the reply then names it.
    await expect.poll(() => mini.getAttribute("data-highlighted")).toBe("");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => groups.nth(0).getByRole("option", { name: "o3-mini" }).getAttribute("data-highlighted")).toBe("");
    await page.keyboard.press("Enter");
    await list.waitFor({ state: "detached" });
    expect(await picker.innerText()).toBe("o3-mini");
    await send(page, "Which model?");
    await lastReply(page).getByText("Echo: Which model?").waitFor();
    await waitForReplyEnd(page);
    expect(await lastReply(page).locator("[data-reply-meta]").innerText()).toContain("o3-mini");
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: "o3-mini" });
  });
});

describe("keyboard shortcuts", () => {
  it("lists the shortcuts on ?, from the header button too, and never takes ? from the message box", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, member);
    await page.goto("/chat");
    await composer(page).waitFor();

    // Typing in the box: ? is a character, not the dialog.
    await composer(page).click();
    await page.keyboard.type("Why? Because?");
    expect(await composer(page).inputValue()).toBe("Why? Because?");
    expect(await page.getByRole("dialog").count()).toBe(0);

    await blur(page);
    await page.keyboard.press("Shift+?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor();
    const rows = await dialog.locator("[data-shortcut]").allInnerTexts();
    expect(rows.map((row) => row.replace(/\s+/g, " ").trim())).toEqual([
      "New chat Ctrl Shift O",
      "Focus the message box Shift Esc",
      "Search chats Ctrl K",
      "Stop generating (while a reply is written) Esc",
      "Regenerate the last reply Ctrl Shift E",
      "Copy the last reply Ctrl Shift C",
      "Show or hide the chat history Ctrl Shift S",
      "Show these shortcuts ?",
    ]);
    await page.screenshot({ path: shot("chat-layout-shortcuts-1440.png") });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // The text typed before is still there, untouched by the shortcuts.
    expect(await composer(page).inputValue()).toBe("Why? Because?");
  });

  it("new chat, focus the box, search, toggle the history: each does its job", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, member);
    await openChatWithReply(page, "Shortcut walk");

    // Ctrl+Shift+O: a new chat, the cursor in its box.
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL((url) => url.pathname === "/chat");
    await page.getByText("Hi Ada Lovelace!").waitFor();
    await expect.poll(() => focusedLabel(page)).toBe("Message");

    // Shift+Esc from anywhere, even from the search box: back to the message box.
    await history(page).getByRole("searchbox", { name: "Search chats" }).click();
    await page.keyboard.press("Shift+Escape");
    await expect.poll(() => focusedLabel(page)).toBe("Message");

    // Ctrl+K from the message box: the search box, and typing there searches.
    await page.keyboard.press("Control+K");
    await expect.poll(() => focusedLabel(page)).toBe("Search chats");
    await page.keyboard.type("Shortcut");
    await history(page)
      .getByRole("list", { name: "Search results" })
      .getByRole("link", { name: /Shortcut walk/ })
      .waitFor();

    // Ctrl+Shift+S hides and shows the history (remembered); Ctrl+K opens a hidden history to search.
    await blur(page);
    await page.keyboard.press("Control+Shift+S");
    await history(page).waitFor({ state: "detached" });
    await page.keyboard.press("Control+K");
    await history(page).waitFor();
    await expect.poll(() => focusedLabel(page)).toBe("Search chats");
    await page.keyboard.press("Control+Shift+S");
    await history(page).waitFor({ state: "detached" });
    await page.keyboard.press("Control+Shift+S");
    await history(page).waitFor();

    // A phone: Ctrl+K opens the history sheet with the cursor in its search box.
    const phone = await h.newPage({ width: 390, height: 844 });
    await signIn(phone, member);
    await phone.goto("/chat");
    await composer(phone).waitFor();
    await phone.keyboard.press("Control+K");
    await phone.getByRole("dialog", { name: "Chat history" }).waitFor();
    await expect.poll(() => focusedLabel(phone)).toBe("Search chats");
  });

  it("stops a reply with Esc (not from the search box), regenerates and copies the last reply", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, member);
    await openChatWithReply(page, "Copy me please");

    // Ctrl+Shift+C: the last reply's text on the clipboard.
    await page.keyboard.press("Control+Shift+C");
    await page.locator("[data-sonner-toast]", { hasText: "Reply copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Echo: Copy me please");

    // Ctrl+Shift+E: one more call to the provider, the reply replaced.
    const calls = fake.requests.length;
    await page.keyboard.press("Control+Shift+E");
    await expect.poll(() => fake.requests.length).toBe(calls + 1);
    await waitForReplyEnd(page);
    await lastReply(page).getByText("Echo: Copy me please").waitFor();

    // Esc in the search box is the search box's: it does not stop the reply.
    await send(page, "#slow long answer");
    await lastReply(page).getByText("Slow reply:").waitFor();
    await history(page).getByRole("searchbox", { name: "Search chats" }).click();
    await page.keyboard.press("Escape");
    // A fixed wait: the reply must NOT stop, and an absence has no event to wait for; a stop would show within a frame
    // or two (the Stop button goes at once), and the reply streams a word every few ms meanwhile.
    await page.waitForTimeout(500);
    expect(await page.getByRole("button", { name: "Stop generating" }).count()).toBe(1);
    expect(await lastReply(page).getByText("Stopped before the end").count()).toBe(0);
    // Esc elsewhere stops it; what arrived is kept.
    await blur(page);
    await page.keyboard.press("Escape");
    await lastReply(page).getByText("Stopped before the end").waitFor();
    await waitForReplyEnd(page);
    expect(await lastReply(page).innerText()).not.toContain("word38");
  });

  it("uses ⌘ on a Mac, and shows it", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "platform", { get: () => "MacIntel" });
      Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => ({ platform: "macOS" }) });
    });
    await signIn(page, member);
    await openChatWithReply(page, "Mac user here");
    const chatUrl = page.url();
    // Ctrl is not the Mac's modifier: nothing happens.
    await page.keyboard.press("Control+Shift+O");
    // A fixed wait: nothing must happen, and an absence has no event to wait for (Meta+Shift+O below navigates within
    // a frame, so 300 ms is ample for this one to have done so).
    await page.waitForTimeout(300);
    expect(page.url()).toBe(chatUrl);
    await page.keyboard.press("Meta+Shift+O");
    await page.waitForURL((url) => url.pathname === "/chat");

    await blur(page);
    await page.keyboard.press("Shift+?");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    expect((await dialog.locator('[data-shortcut="newChat"]').innerText()).replace(/\s+/g, " ")).toBe("New chat ⌘ ⇧ O");
    expect((await dialog.locator('[data-shortcut="searchChats"]').innerText()).replace(/\s+/g, " ")).toBe("Search chats ⌘ K");
  });
});
