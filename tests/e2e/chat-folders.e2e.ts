// Folders and pins in the chat sidebar: make a folder, move a chat into it (menu and drag), pin a chat, limit a
// search to the folder, delete the folder moving its chats out; screenshots at 1440 and 390 px, light and dark.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { registerViaApi, signIn, startHarness } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let account: Awaited<ReturnType<typeof registerViaApi>>;

/** Three chats with a message each (a chat is listed once it has one), newest last. */
async function seedChats(userId: number, titles: string[]) {
  const base = Date.now() - titles.length * 60_000;
  const rows = await h.database.db
    .insert(chats)
    .values(titles.map((title, i) => ({ userId, title, aiPlatform: "openai", updatedAt: new Date(base + i * 60_000) })))
    .returning();
  await h.database.db
    .insert(messages)
    .values(rows.map((row) => ({ chatId: row.id, userId, role: "user", content: `Notes on ${row.title}` })));
  return rows;
}

beforeAll(async () => {
  account = await registerViaApi(h);
  await seedChats(account.id, ["Lisbon trip", "Tax return", "Pumpkin soup"]);
});

const history = (page: Page) => page.getByRole("complementary", { name: "Chat history" });
const list = (page: Page) => history(page).getByRole("list", { name: "Chats" });
const chatRow = (page: Page, title: string) => list(page).locator("[data-chat-id]", { hasText: title });
const folderRow = (page: Page, name: string) => list(page).locator("[data-folder-id]", { hasText: name });

async function chatMenu(page: Page, title: string, item: string) {
  const row = chatRow(page, title).first();
  await row.hover();
  await row.getByRole("button", { name: "Chat actions" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

/** The titles of the sidebar's rows, top to bottom (headings and folders too). */
async function sidebarText(page: Page) {
  return (await list(page).locator("li").allInnerTexts()).map((text) => text.split("\n")[0]?.trim());
}

describe("chat folders and pins", () => {
  it("makes a folder, moves chats in by menu and by drag, pins one, searches the folder, deletes it moving chats out", async () => {
    const page = await h.newPage();
    await signIn(page, account);
    await page.goto("/chat");
    await chatRow(page, "Lisbon trip").waitFor();

    // New folder: the name is required, then it appears, open and empty.
    await history(page).getByRole("button", { name: "New folder" }).click();
    const dialog = page.getByRole("dialog", { name: "New folder" });
    await dialog.getByRole("button", { name: "Create folder" }).click();
    await dialog.getByText("Folder name is required").waitFor();
    await dialog.getByLabel("Folder name").fill("  Travel  ");
    await dialog.getByRole("button", { name: "Create folder" }).click();
    await dialog.waitFor({ state: "detached" });
    await folderRow(page, "Travel").waitFor();
    await list(page).getByText("No chats in this folder").waitFor();

    // Move by the menu (the keyboard way).
    await chatMenu(page, "Lisbon trip", "Move to folder...");
    const move = page.getByRole("dialog", { name: "Move to folder" });
    await move.getByRole("button", { name: "Travel" }).click();
    await move.waitFor({ state: "detached" });
    await folderRow(page, "Travel").getByRole("button", { name: "Travel, 1 chat" }).waitFor();
    expect(await sidebarText(page)).toEqual(["Folders", "Travel", "Lisbon trip", "Chats", "Pumpkin soup", "Tax return"]);

    // Move by dragging a row onto the folder.
    await chatRow(page, "Pumpkin soup").dragTo(folderRow(page, "Travel"));
    await expect.poll(() => sidebarText(page)).toEqual(["Folders", "Travel", "Pumpkin soup", "Lisbon trip", "Chats", "Tax return"]);

    // Pin: the chat comes first, under Pinned, and stays in its folder.
    await chatMenu(page, "Lisbon trip", "Pin");
    await expect
      .poll(() => sidebarText(page))
      .toEqual(["Pinned", "Lisbon trip", "Folders", "Travel", "Pumpkin soup", "Lisbon trip", "Chats", "Tax return"]);
    await page.screenshot({ path: screenshotPath("chat-folders-1440.png") });

    // Search limited to the folder.
    await history(page).getByRole("combobox", { name: "Search in" }).selectOption({ label: "Travel" });
    await history(page).getByRole("searchbox", { name: "Search chats" }).fill("notes");
    const results = history(page).getByRole("list", { name: "Search results" });
    await results.getByRole("link", { name: /Pumpkin soup/ }).waitFor();
    expect(await results.getByRole("listitem").count()).toBe(2);
    expect(await results.getByRole("link", { name: /Tax return/ }).count()).toBe(0);
    await history(page).getByRole("combobox", { name: "Search in" }).selectOption({ label: "All chats" });
    await results.getByRole("link", { name: /Tax return/ }).waitFor();
    await history(page).getByRole("searchbox", { name: "Search chats" }).fill("");

    // Unpin from the menu.
    await chatMenu(page, "Lisbon trip", "Unpin");
    await expect.poll(() => sidebarText(page)).toEqual(["Folders", "Travel", "Pumpkin soup", "Lisbon trip", "Chats", "Tax return"]);

    // Delete, moving the chats out.
    await folderRow(page, "Travel").hover();
    await folderRow(page, "Travel").getByRole("button", { name: "Folder actions for Travel" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete “Travel”?" });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain("This folder holds 2 chats.");
    await confirm.getByRole("button", { name: "Move chats out" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect.poll(() => sidebarText(page)).toEqual(["Pumpkin soup", "Tax return", "Lisbon trip"]);
  });

  it("fits 1440 and 390 px, light and dark", async () => {
    const folderAccount = await registerViaApi(h);
    const [first, second] = await seedChats(folderAccount.id, ["Garden plans", "Reading list", "Weekly menu"]);
    const api = new CookieClient(h.app);
    expect((await api.post("/api/login", { username: folderAccount.username, password: folderAccount.password })).statusCode).toBe(200);
    const folder = await api.post("/api/chat-folders", { name: "Home" });
    expect(folder.statusCode).toBe(201);
    const folderId = (folder.json() as { id: number }).id;
    for (const chat of [first, second]) expect((await api.patch(`/api/chats/${chat!.id}`, { folderId })).statusCode).toBe(200);
    expect((await api.patch(`/api/chats/${second!.id}`, { pinned: true })).statusCode).toBe(200);

    for (const theme of ["light", "dark"] as const) {
      const wide = await h.newPage({ width: 1440, height: 900 });
      await wide.addInitScript((value) => {
        if (window === window.top) localStorage.setItem("ui-theme", value);
      }, theme);
      await signIn(wide, folderAccount);
      await wide.goto("/chat");
      await folderRow(wide, "Home").getByRole("button", { name: "Home, 2 chats" }).click();
      await list(wide).getByText("Garden plans").waitFor();
      await wide.screenshot({ path: screenshotPath(`chat-folders-${theme}-1440.png`) });

      const narrow = await h.newPage({ width: 390, height: 844 });
      await narrow.addInitScript((value) => {
        if (window === window.top) localStorage.setItem("ui-theme", value);
      }, theme);
      await signIn(narrow, folderAccount);
      await narrow.goto("/chat");
      await narrow.getByRole("button", { name: "History" }).click();
      const sheet = narrow.getByRole("dialog", { name: "Chat history" });
      await sheet.getByRole("button", { name: "Home, 2 chats" }).click();
      await sheet.getByText("Garden plans").waitFor();
      const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await narrow.screenshot({ path: screenshotPath(`chat-folders-${theme}-390.png`) });
    }
  });
});
