// Issue 29, item 1, on the forms that did not have it yet: the one unsaved-changes guard (lib/unsaved-changes.ts)
// on an admin page form (Payment Settings: plan limits, price), an admin form opened in place (AI platform create),
// a chat dialog (rename chat, new folder) and course dialogs (New Course, Generate with AI). Edit, try to leave,
// see the question; Keep editing keeps the text, Discard leaves, Save saves. The question at 1440 and 390 px,
// light and dark.
import type { Dialog, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { dialogOnTop } from "./support/dialog-on-top.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let admin: Awaited<ReturnType<typeof registerViaApi>>;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  admin = await registerViaApi(h, uniqueAccount("boss"));
  if (admin.role !== "admin") throw new Error("the first account should be admin");
  member = await registerViaApi(h, uniqueAccount("member"));
});

const question = (page: Page) => page.getByRole("dialog", { name: "Unsaved changes" });
const answers = (page: Page) => question(page).getByRole("button").allInnerTexts();

/** Closes the page as a tab is closed and answers the browser's own question; returns whether it was asked. */
async function closeTabAsked(page: Page): Promise<boolean> {
  let asked = false;
  const answered = new Promise<void>((resolve) => {
    page.on("dialog", (dialog: Dialog) => {
      if (dialog.type() === "beforeunload") asked = true;
      void dialog.accept().then(resolve);
    });
  });
  await page.close({ runBeforeUnload: true });
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 1_500))]);
  return asked;
}

async function api(account: { username: string; password: string }) {
  const client = new CookieClient(h.app);
  expect((await client.post("/api/login", { username: account.username, password: account.password })).statusCode).toBe(200);
  return client;
}

const adminNav = (page: Page) => page.getByRole("navigation", { name: "Admin" });

describe("unsaved changes on the remaining forms", () => {
  it("Payment Settings: the plan limits and the price ask before a link or a tab close", { timeout: 120_000 }, async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/admin/payment-settings");
    await page.getByRole("heading", { name: "Payment Settings", level: 1 }).waitFor();
    const limits = page.getByRole("form", { name: "Plan limits" });
    const freeTokens = limits.locator("#limit-free-tokens");
    await freeTokens.fill("5000");

    // A link to another admin page: the question, with Save (the form can be saved); Keep editing stays.
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await question(page).waitFor();
    await expect.poll(() => answers(page)).toEqual(["Keep editing", "Discard", "Save", "Close"]);
    await question(page).getByRole("button", { name: "Keep editing" }).click();
    await question(page).waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/admin/payment-settings");
    expect(await freeTokens.inputValue()).toBe("5000");

    // Discard follows the link and saves nothing.
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await question(page).getByRole("button", { name: "Discard" }).click();
    await page.waitForURL("**/admin/users");
    const admins = await api(admin);
    const saved = await admins.get("/api/admin/plan-allowances");
    expect(saved.statusCode).toBe(200);
    expect(saved.json().free.monthlyTokens).toBeNull();

    // The price: Save from the question saves it, then the link is followed.
    await adminNav(page).getByRole("link", { name: "Payment Settings" }).click();
    await page.getByRole("button", { name: "Save Settings" }).waitFor();
    await page.getByLabel("Early Access price").fill("149.50");
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await question(page).getByRole("button", { name: "Save" }).click();
    await page.waitForURL("**/admin/users");
    expect((await admins.get("/api/admin/payment-settings")).json().earlyAccessPrice).toBe("149.50");

    // Closing the tab with a limit typed: the browser asks.
    await adminNav(page).getByRole("link", { name: "Payment Settings" }).click();
    await freeTokens.fill("7000");
    expect(await closeTabAsked(page)).toBe(true);
  });

  it("AI platforms: a platform half typed asks before a link, the back button or a tab close; Cancel discards", {
    timeout: 90_000,
  }, async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    // Reached by an in-app link, so that Back stays in the app (a popstate the guard puts back).
    await page.goto("/admin/users");
    await adminNav(page).getByRole("link", { name: "AI Chat Settings" }).click();
    await page.getByRole("heading", { name: "AI Chat Settings" }).waitFor();
    await page.getByRole("button", { name: "Add Platform" }).click();
    const form = page.getByRole("region", { name: "Add a platform", exact: true });
    await form.getByLabel("Name", { exact: true }).fill("Local Llama");

    await adminNav(page).getByRole("link", { name: "Payment Settings" }).click();
    await question(page).waitFor();
    await question(page).getByRole("button", { name: "Keep editing" }).click();
    await question(page).waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/admin/ai-platforms");
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Local Llama");
    expect(await form.getByLabel("Slug", { exact: true }).inputValue()).toBe("local-llama");

    // The back button is put back and asked about too; Discard goes back.
    await page.goBack();
    await question(page).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/ai-platforms");
    await question(page).getByRole("button", { name: "Discard" }).click();
    await page.waitForURL("**/admin/users");

    // The form's own Cancel discards without asking (decision 031); untouched, a link does not ask.
    await page.goto("/admin/ai-platforms");
    await page.getByRole("button", { name: "Add Platform" }).click();
    await form.getByLabel("Name", { exact: true }).fill("Thrown away");
    await form.getByRole("button", { name: "Cancel" }).click();
    await form.waitFor({ state: "detached" });
    expect(await question(page).count()).toBe(0);
    await adminNav(page).getByRole("link", { name: "Users" }).click();
    await page.waitForURL("**/admin/users");
    expect(await question(page).count()).toBe(0);

    await page.goto("/admin/ai-platforms");
    await page.getByRole("button", { name: "Add Platform" }).click();
    await form.getByLabel("Name", { exact: true }).fill("Closing the tab");
    expect(await closeTabAsked(page)).toBe(true);
    const admins = await api(admin);
    expect(JSON.stringify((await admins.get("/api/admin/ai-platforms")).json())).not.toMatch(/Local Llama|Thrown away|Closing the tab/);
  });

  it("chat: renaming a chat and naming a folder ask before a close throws the name away", { timeout: 90_000 }, async () => {
    const [chat] = await h.database.db.insert(chats).values({ userId: member.id, title: "Lisbon trip", aiPlatform: "openai" }).returning();
    if (!chat) throw new Error("no chat");
    await h.database.db.insert(messages).values({ chatId: chat.id, userId: member.id, role: "user", content: "Where to eat?" });
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/chat");
    const history = page.getByRole("complementary", { name: "Chat history" });
    const row = history.locator("[data-chat-id]", { hasText: "Lisbon trip" }).first();
    await row.hover();
    await row.getByRole("button", { name: "Chat actions" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const rename = page.getByRole("dialog", { name: "Rename chat" });
    await rename.getByLabel("Chat title").fill("Porto trip");

    // Escape asks; Keep editing keeps the dialog and the text.
    await page.keyboard.press("Escape");
    await question(page).waitFor();
    await expect.poll(() => answers(page)).toEqual(["Keep editing", "Discard", "Save", "Close"]);
    await question(page).getByRole("button", { name: "Keep editing" }).click();
    await question(page).waitFor({ state: "detached" });
    expect(await rename.getByLabel("Chat title").inputValue()).toBe("Porto trip");

    // The X asks too; Discard closes and the chat keeps its name.
    await rename.getByRole("button", { name: "Close" }).click();
    await question(page).getByRole("button", { name: "Discard" }).click();
    await rename.waitFor({ state: "detached" });
    await history.getByText("Lisbon trip").waitFor();
    const members = await api(member);
    expect((await members.get(`/api/chats/${chat.id}`)).json().title).toBe("Lisbon trip");

    // Untouched, Escape closes at once.
    await row.hover();
    await row.getByRole("button", { name: "Chat actions" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await rename.waitFor();
    await page.keyboard.press("Escape");
    await rename.waitFor({ state: "detached" });
    expect(await question(page).count()).toBe(0);

    // New folder: a click outside the dialog asks; Save from the question makes the folder.
    await history.getByRole("button", { name: "New folder" }).click();
    const folder = page.getByRole("dialog", { name: "New folder" });
    await folder.getByLabel("Folder name").fill("Travel");
    await dialogOnTop(folder);
    await page.mouse.click(5, 5);
    await question(page).waitFor();
    await question(page).getByRole("button", { name: "Save" }).click();
    await folder.waitFor({ state: "detached" });
    await history.locator("[data-folder-id]", { hasText: "Travel" }).waitFor();
  });

  it("courses: New Course and Generate with AI ask before a close; a created course opens without asking", {
    timeout: 120_000,
  }, async () => {
    const page = await h.newPage();
    await signIn(page, admin);
    await page.goto("/courses");
    const openNewCourse = () =>
      page
        .getByRole("button", { name: /New Course|Create a Course/ })
        .first()
        .click();
    await openNewCourse();
    const create = page.getByRole("dialog", { name: "New Course" });
    await create.getByLabel("Title").fill("Knots at sea");
    await create.getByRole("textbox", { name: "Description" }).fill("Six knots every sailor uses.");

    // Escape asks; Keep editing keeps both fields.
    await page.keyboard.press("Escape");
    await question(page).waitFor();
    await question(page).getByRole("button", { name: "Keep editing" }).click();
    await question(page).waitFor({ state: "detached" });
    expect(await create.getByLabel("Title").inputValue()).toBe("Knots at sea");
    expect(await create.getByRole("textbox", { name: "Description" }).inputValue()).toBe("Six knots every sailor uses.");

    // A click outside the dialog asks too; Discard closes it and makes nothing.
    await dialogOnTop(create);
    await page.mouse.click(5, 5);
    await question(page).getByRole("button", { name: "Discard" }).click();
    await create.waitFor({ state: "detached" });
    const admins = await api(admin);
    expect(JSON.stringify((await admins.get("/api/courses")).json())).not.toContain("Knots at sea");

    // Create Course opens the new course's editor at once: nothing is unsaved any more.
    await openNewCourse();
    await create.getByLabel("Title").fill("Knots at sea");
    await create.getByRole("button", { name: "Create Course" }).click();
    await page.waitForURL(/\/courses\/\d+\/edit$/);
    expect(await question(page).count()).toBe(0);

    // Generate with AI: a changed module count asks before Escape throws it away (nothing to save from there).
    await page.getByRole("button", { name: /Generate with AI/ }).click();
    const generate = page.getByRole("dialog", { name: "Generate with AI" });
    await generate.getByLabel("Number of modules").fill("6");
    await page.keyboard.press("Escape");
    await question(page).waitFor();
    await expect.poll(() => answers(page)).toEqual(["Keep editing", "Discard", "Close"]);
    await question(page).getByRole("button", { name: "Keep editing" }).click();
    await question(page).waitFor({ state: "detached" });
    expect(await generate.getByLabel("Number of modules").inputValue()).toBe("6");
    await dialogOnTop(generate);
    await page.keyboard.press("Escape");
    await question(page).getByRole("button", { name: "Discard" }).click();
    await generate.waitFor({ state: "detached" });
  });

  it("the question over a dialog fits 1440 and 390 px, light and dark", { timeout: 120_000 }, async () => {
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const page = await h.newPage({ width, height: width === 390 ? 844 : 900 });
      await signIn(page, member);
      if (theme === "dark") {
        await page.evaluate(() => {
          localStorage.setItem("ui-theme", "dark");
          document.documentElement.classList.add("dark");
        });
      }
      await page.goto("/courses");
      await page
        .getByRole("button", { name: /New Course|Create a Course/ })
        .first()
        .click();
      const create = page.getByRole("dialog", { name: "New Course" });
      await create.getByLabel("Title").fill("Knots at sea");
      await page.keyboard.press("Escape");
      await question(page).waitFor();
      await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      const box = await question(page).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      for (const name of ["Keep editing", "Discard", "Save"]) {
        const button = await question(page).getByRole("button", { name, exact: true }).boundingBox();
        expect(button && box && button.x >= box.x && button.x + button.width <= box.x + box.width).toBe(true);
      }
      await page.screenshot({ path: screenshotPath(`unsaved-guard-new-course-${width}-${theme}.png`) });
      await question(page).getByRole("button", { name: "Keep editing" }).click();
      expect(await create.getByLabel("Title").inputValue()).toBe("Knots at sea");
    }
  });
});
