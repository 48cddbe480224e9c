// A demanding new user's walk through issue 16's screens (chat, branches, export, folders, shortcuts, usage meter,
// Settings → Your chats, Admin → Payment Settings and Users) at 1440 and 390 px, light and dark: nothing scrolls
// sideways, menus open inside the screen, focus comes back after a dialog, and axe-core finds no WCAG A/AA problem.
// Screenshots go to SHOTS_DIR (else the house folder) for a person to look at.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const shot = (name: string) => (process.env.SHOTS_DIR ? path.join(process.env.SHOTS_DIR, name) : screenshotPath(`walk-${name}`));

let fake: FakeProvider;
let adminApi: CookieClient;
let admin: { username: string; password: string };
let member: Awaited<ReturnType<typeof registerViaApi>>;
let chatUrl = "";

const VARIANTS = [
  { width: 1440, theme: "light" },
  { width: 1440, theme: "dark" },
  { width: 390, theme: "light" },
  { width: 390, theme: "dark" },
] as const;
type Variant = (typeof VARIANTS)[number];
const label = (v: Variant) => `${v.width}-${v.theme}`;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  adminApi = await adminWithStandIn(h, fake, {
    models: ["gpt-4o-mini", "gpt-4o", "o3-mini"],
    freeModels: ["gpt-4o-mini", "o3-mini"],
    defaultModel: "gpt-4o-mini",
  });
  const me = (await adminApi.get("/api/user")).json() as { username: string };
  admin = { username: me.username, password: "Str0ng!pass" };
  member = await registerViaApi(h, uniqueAccount("walker"));
  const limits = await adminApi.request({
    method: "PUT",
    url: "/api/admin/plan-allowances",
    payload: { free: { monthlyTokens: 250_000, messagesPerDay: 40 }, earlyAccess: { monthlyTokens: null, messagesPerDay: null } },
  });
  expect(limits.statusCode, limits.body).toBe(200);
});
afterAll(async () => {
  await fake?.close();
});

async function open(v: Variant, account: { username: string; password: string }, to: string): Promise<Page> {
  const page = await h.newPage({ width: v.width, height: v.width === 390 ? 844 : 900 });
  await page.addInitScript((value) => {
    if (window === window.top) localStorage.setItem("ui-theme", value);
  }, v.theme);
  await signIn(page, account);
  await page.goto(to);
  return page;
}

/** Animations that end (menus and sheets sliding in) would be measured half-way: waits until none runs. */
async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** axe-core's WCAG 2 A and AA findings, as readable lines. */
async function audit(page: Page): Promise<string[]> {
  await settled(page);
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    type AxeResults = { violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      // Experimental in axe: it counts hidden text (a folder's count, the avatar's initials) as the visible label.
      rules: { "label-content-name-mismatch": { enabled: false } },
      resultTypes: ["violations"],
    });
    return results.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id} ${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
    );
  });
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The element is wholly on screen (a menu that opens off a phone's edge fails). */
async function onScreen(page: Page, locator: Locator) {
  await settled(page);
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return active && active !== document.body ? (active.getAttribute("aria-label") ?? active.textContent?.trim() ?? active.tagName) : null;
  });

const composer = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });
const lastReply = (page: Page) => page.locator('[data-message-role="assistant"]').last();

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press("Enter");
  await lastReply(page).getByText(`Echo: ${text}`).waitFor();
  await page.getByRole("button", { name: "Send message" }).waitFor();
}

/** The history: the rail at 1440, the sheet (opened here) at 390. */
async function history(page: Page, v: Variant): Promise<Locator> {
  if (v.width >= 1024) return page.getByRole("complementary", { name: "Chat history" });
  await page.getByRole("button", { name: "History" }).click();
  const sheet = page.getByRole("dialog", { name: "Chat history" });
  await sheet.waitFor();
  await settled(page);
  return sheet;
}

describe("issue 16 walk", () => {
  it("a chat with a reply, an edited message (2 / 2) and a folder, made through the screens", async () => {
    const page = await open(VARIANTS[0], member, "/chat");
    await composer(page).waitFor();
    // A new account's history says it is empty, and how that changes.
    await page.getByRole("complementary", { name: "Chat history" }).getByText("No chats yet. Your first message starts one.").waitFor();
    await send(page, "Plan a weekend in Porto");
    await page.waitForURL(/\/chat\/\d+$/);
    chatUrl = new URL(page.url()).pathname;
    await send(page, "Two days please");
    const second = page.locator('[data-message-role="user"]', { hasText: "Two days please" });
    await second.hover();
    await second.getByRole("button", { name: "Edit message" }).click();
    await page.getByRole("textbox", { name: "Edited message" }).fill("Three days please");
    await page.getByRole("button", { name: "Save & submit" }).click();
    await lastReply(page).getByText("Echo: Three days please").waitFor();
    await page.getByRole("button", { name: "Send message" }).waitFor();
    await page.getByRole("group", { name: "Versions of this message" }).getByText("2 / 2").waitFor();

    // A folder, made from the rail; focus comes back to the button that opened the dialog.
    const rail = page.getByRole("complementary", { name: "Chat history" });
    await rail.getByRole("button", { name: "New folder" }).click();
    const dialog = page.getByRole("dialog", { name: "New folder" });
    await dialog.getByLabel("Folder name").fill("Travel ideas for the whole summer of 2026");
    await dialog.getByRole("button", { name: "Create folder" }).click();
    await dialog.waitFor({ state: "detached" });
    await rail.getByText("No chats in this folder").waitFor();
  });

  for (const v of VARIANTS) {
    it(`the chat page at ${v.width} px, ${v.theme}: layout, menus on screen, dialogs give focus back, axe`, async () => {
      const page = await open(v, member, chatUrl);
      await lastReply(page).getByText("Echo: Three days please").waitFor();
      await expect
        .poll(() => page.getByTestId("usage-meter").innerText())
        .toMatch(/[\d,]+ tokens left this month · 3\d messages left today/);
      await noSidewaysScroll(page);
      await settled(page);
      await page.screenshot({ path: shot(`chat-${label(v)}.png`) });
      expect((await audit(page)).join("\n")).toBe("");

      // The model picker: grouped, on screen.
      const picker = page.getByRole("combobox", { name: "Model" });
      await picker.click();
      const list = page.getByRole("listbox");
      await list.waitFor();
      await onScreen(page, list);
      await settled(page);
      await page.screenshot({ path: shot(`chat-model-picker-${label(v)}.png`) });
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toBe("Model");

      // Export (header menu): on screen; Escape gives focus back to its button.
      await page.getByRole("button", { name: "Export chat" }).click();
      const exportMenu = page.getByRole("menu");
      await exportMenu.getByRole("menuitem", { name: "As Markdown" }).waitFor();
      await onScreen(page, exportMenu);
      await settled(page);
      await page.screenshot({ path: shot(`chat-export-menu-${label(v)}.png`) });
      await page.keyboard.press("Escape");
      await exportMenu.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toBe("Export chat");

      // The shortcuts dialog (?), then focus back where it was.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("Shift+?");
      const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await shortcuts.waitFor();
      await onScreen(page, shortcuts);
      await settled(page);
      await page.screenshot({ path: shot(`chat-shortcuts-${label(v)}.png`) });
      expect((await audit(page)).join("\n")).toBe("");
      await page.keyboard.press("Escape");
      await shortcuts.waitFor({ state: "detached" });

      // The branch switcher of the edited message.
      const versions = page.getByRole("group", { name: "Versions of this message" });
      await versions.getByRole("button", { name: "Previous version" }).click();
      await lastReply(page).getByText("Echo: Two days please").waitFor();
      await versions.getByText("1 / 2").waitFor();
      await versions.scrollIntoViewIfNeeded();
      await settled(page);
      await page.screenshot({ path: shot(`chat-branch-1-of-2-${label(v)}.png`) });
      await versions.getByRole("button", { name: "Next version" }).click();
      await lastReply(page).getByText("Echo: Three days please").waitFor();

      // The history with its folder and chat menus, on screen; rename gives focus back.
      const side = await history(page, v);
      await side.locator("[data-folder-id]", { hasText: "Travel ideas" }).waitFor();
      await settled(page);
      await page.screenshot({ path: shot(`chat-history-${label(v)}.png`) });
      const row = side.locator("[data-chat-id]").first();
      await row.hover();
      await row.getByRole("button", { name: /^Chat actions/ }).click();
      const rowMenu = page.getByRole("menu");
      await rowMenu.getByRole("menuitem", { name: "Move to folder..." }).waitFor();
      await onScreen(page, rowMenu);
      await settled(page);
      await page.screenshot({ path: shot(`chat-row-menu-${label(v)}.png`) });
      await page.keyboard.press("Escape");
      await rowMenu.waitFor({ state: "detached" });

      const folder = side.locator("[data-folder-id]").first();
      await folder.hover();
      await folder.getByRole("button", { name: /^Folder actions/ }).click();
      await page.getByRole("menuitem", { name: "Rename" }).click();
      const rename = page.getByRole("dialog", { name: "Rename folder" });
      await rename.waitFor();
      await onScreen(page, rename);
      await settled(page);
      await page.screenshot({ path: shot(`chat-rename-folder-${label(v)}.png`) });
      expect((await audit(page)).join("\n")).toBe("");
      await rename.getByRole("button", { name: "Cancel" }).click();
      await rename.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toMatch(/^Folder actions/);

      await folder.hover();
      await folder.getByRole("button", { name: /^Folder actions/ }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      const remove = page.getByRole("dialog", { name: /^Delete “/ });
      await remove.waitFor();
      await onScreen(page, remove);
      // The folder is empty: no question about its chats, one plain delete.
      await remove.getByText("This folder is empty.").waitFor();
      expect(await remove.getByRole("button", { name: "Delete folder" }).count()).toBe(1);
      expect(await remove.getByRole("button", { name: "Move chats out" }).count()).toBe(0);
      await settled(page);
      await page.screenshot({ path: shot(`chat-delete-folder-${label(v)}.png`) });
      await remove.getByRole("button", { name: "Cancel" }).click();
      await remove.waitFor({ state: "detached" });
      await expect.poll(() => focusedName(page)).toMatch(/^Folder actions/);
      await noSidewaysScroll(page);
    });
  }

  for (const v of VARIANTS) {
    it(`Settings → Your chats at ${v.width} px, ${v.theme}: export, a failed import says what to do, axe`, async () => {
      const page = await open(v, member, "/settings");
      await page.getByRole("tab", { name: "Your chats" }).click();
      await page.getByRole("button", { name: "Import chats" }).waitFor();
      await noSidewaysScroll(page);
      await settled(page);
      await page.screenshot({ path: shot(`settings-chats-${label(v)}.png`), fullPage: true });
      expect((await audit(page)).join("\n")).toBe("");

      await page
        .locator("#import-chats-file")
        .setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from("{nope") });
      const failure = page.getByRole("alert").filter({ hasText: "The import failed." });
      await failure.waitFor();
      // What to do next, once: the server's reason says nothing was imported and to choose the .json of an export.
      const text = await failure.innerText();
      expect(text.match(/nothing was imported/gi)).toHaveLength(1);
      expect(text.match(/\bchoose\b/gi)).toHaveLength(1);
      await settled(page);
      await page.screenshot({ path: shot(`settings-chats-failed-${label(v)}.png`), fullPage: true });
      expect((await audit(page)).join("\n")).toBe("");
    });
  }

  for (const v of VARIANTS) {
    it(`Admin → Payment Settings (Plan limits) and Users at ${v.width} px, ${v.theme}: formatted numbers, axe`, async () => {
      const page = await open(v, admin, "/admin/payment-settings");
      const limits = page.getByRole("form", { name: "Plan limits" });
      await limits.waitFor();
      await noSidewaysScroll(page);
      expect((await audit(page)).join("\n")).toBe("");
      // Saved numbers read with their thousands separator.
      expect(await limits.getByLabel("Tokens per month").first().inputValue()).toBe("250,000");
      await limits.scrollIntoViewIfNeeded();
      await settled(page);
      await page.screenshot({ path: shot(`admin-plan-limits-${label(v)}.png`) });
      await settled(page);
      await limits.screenshot({ path: shot(`admin-plan-limits-card-${label(v)}.png`) });

      await page.goto("/admin/users");
      // A table from 1024 px, one card per user below.
      const row = page.getByRole(v.width >= 1024 ? "row" : "listitem", { name: member.username });
      await row.waitFor();
      await expect.poll(() => row.innerText()).toMatch(/\d+ \/ 40/);
      // Every column, the row's actions too, is on screen without scrolling the table sideways.
      await row.getByRole("button", { name: /^Delete / }).waitFor();
      const overflow = await page.evaluate(() =>
        [...document.querySelectorAll("table")].map((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth),
      );
      expect(
        overflow.every((px) => px <= 0),
        `the users table overflows by ${overflow} px`,
      ).toBe(true);
      expect(await row.innerText()).toMatch(/[\d,]+ \/ 250,000/);
      await settled(page);
      await page.screenshot({ path: shot(`admin-users-${label(v)}.png`), fullPage: true });
      expect((await audit(page)).join("\n")).toBe("");
    });
  }
});
