import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { audit } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

// Issue 33: a chat whose messages hold a script, an event handler, a javascript: link and raw HTML is shared from the
// chat's Share link dialog; Chromium opens /share/<token> signed out (no script runs, the head names the chat, noindex),
// another signed-in user continues it as a chat of their own; the owner revokes it and the page is the not-found page.

/** The database's first account, so an admin (registered before the walks). */
let admin: { username: string; password: string; role: string } | null = null;
const h = startHarness({
  ready: async (harness) => {
    admin = await registerViaApi(harness, uniqueAccount("admin"));
  },
});

const EVIL_USER = `<script>window.__pwned = "script"</script> and <img src=x onerror="window.__pwned='img'"> hello`;
const EVIL_REPLY = [
  "Here is **bold** and a [bad link](javascript:window.__pwned='link') and a [good link](https://example.com).",
  "",
  `<img src=x onerror="window.__pwned='reply-img'"><b>raw html</b><iframe src="javascript:alert(1)"></iframe>`,
  "",
  "```js",
  "const answer = 42;",
  "```",
].join("\n");

/** Whether anything the content holds ran: a global it would set, or an alert it would open. */
async function nothingRan(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  const main = page.locator("main");
  expect(await main.locator("script, iframe").count()).toBe(0);
  expect(await main.locator('[href^="javascript:" i], [src^="javascript:" i], [onerror], img[src="x"]').count()).toBe(0);
}

describe("chat share links", () => {
  it("shares from the dialog, renders safely signed out, continues signed in, revokes to a 404", { timeout: 240_000 }, async () => {
    const owner = await registerViaApi(h, { ...uniqueAccount("owner"), name: "Olive Owner" });
    const ownerApi = await apiAs(h, owner);
    const chatId = (await ownerApi.post("/api/chats", {})).json().id as number;
    expect((await ownerApi.post(`/api/chats/${chatId}/messages`, { content: EVIL_USER })).statusCode).toBe(201);
    expect((await ownerApi.post(`/api/chats/${chatId}/messages`, { content: EVIL_REPLY, role: "assistant" })).statusCode).toBe(201);

    // The owner: Share link in the chat's header, with their name, then the link is there to copy.
    const ownerPage = await h.newPage({ width: 1440, height: 900 });
    await signIn(ownerPage, owner);
    await ownerPage.goto(`/chat/${chatId}`);
    await ownerPage.getByRole("button", { name: "Share link" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "Share link" });
    await dialog.getByText("This chat has no share links yet.").waitFor();
    await dialog.getByRole("switch", { name: "Show my name" }).click();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const input = dialog.getByRole("textbox", { name: /^Link to / });
    await input.waitFor();
    const url = await input.inputValue();
    const token = /\/share\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
    expect(token).toBeTruthy();
    await dialog.getByText("shows your name").waitFor();
    await ownerPage.screenshot({ path: screenshotPath("chat-share-dialog-1440-light.png") });
    // A later message is not on the page until the link is updated.
    expect((await ownerApi.post(`/api/chats/${chatId}/messages`, { content: "a later message" })).statusCode).toBe(201);
    expect(await (await fetch(`${h.baseUrl}/share/${token}`)).text()).not.toContain("a later message");
    await dialog.getByRole("button", { name: "Update" }).click();
    await dialog.getByText("3 messages").waitFor();
    await ownerPage.keyboard.press("Escape");

    // The page as the server writes it: its own head, noindex.
    const answer = await fetch(`${h.baseUrl}/share/${token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-robots-tag")).toBe("noindex");
    const html = await answer.text();
    expect(html).toContain('<meta name="robots" content="noindex" />');
    // The chat's title (from its first message), escaped: the head holds no tag of the content.
    expect(html).toContain('<meta property="og:title" content="&lt;script&gt;window.pwned = &quot;script&quot;&lt;/script&gt;');
    expect(html.slice(0, html.indexOf("</head>"))).not.toContain("<script>window");
    expect(html).toContain("a later message");

    // Signed out, every view: the messages drawn as the chat draws them, and nothing of the content ran.
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const page = await h.newPage({ width, height: 900 });
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      if (theme === "dark") await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await page.goto(`/share/${token}`);
      const main = page.locator("main");
      await main.getByText("Shared conversation by Olive Owner").waitFor();
      await main.getByRole("link", { name: "good link" }).waitFor();
      expect(await main.getByRole("link", { name: "good link" }).getAttribute("href")).toBe("https://example.com");
      expect(await main.getByRole("link", { name: "bad link" }).count()).toBe(0);
      await main.getByText("bad link").waitFor();
      await main.locator("strong", { hasText: "bold" }).waitFor();
      await main.getByText(/<b>raw html<\/b>/).waitFor();
      await main.getByText(EVIL_USER).waitFor();
      await main.getByText("const answer = 42;").waitFor();
      await main.getByRole("link", { name: "Sign in" }).waitFor();
      expect(await main.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
        `/login?next=${encodeURIComponent(`/share/${token}`)}`,
      );
      expect(await main.getByRole("button", { name: "Continue this chat" }).count()).toBe(0);
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
      await nothingRan(page, dialogs);
      if (width === 1440) expect(await audit(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`chat-share-page-signed-out-${width}-${theme}.png`), fullPage: true });
      await page.close();
    }

    // Signed in as someone else: Continue this chat copies it into their chats and opens it.
    const reader = await registerViaApi(h, uniqueAccount("reader"));
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const page = await h.newPage({ width, height: 900 });
      if (theme === "dark") await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await signIn(page, reader);
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`/share/${token}`);
      await page.getByRole("button", { name: "Continue this chat" }).waitFor();
      await page.locator("main").getByRole("link", { name: "good link" }).waitFor();
      await nothingRan(page, dialogs);
      await page.screenshot({ path: screenshotPath(`chat-share-page-signed-in-${width}-${theme}.png`), fullPage: true });
      if (width === 1440 && theme === "light") {
        await page.getByRole("button", { name: "Continue this chat" }).click();
        await page.waitForURL(/\/chat\/\d+$/);
        const copy = Number(new URL(page.url()).pathname.split("/").pop());
        expect(copy).not.toBe(chatId);
        await page.getByRole("heading", { name: /^Shared: / }).waitFor();
        await page.getByText("a later message").waitFor();
        await nothingRan(page, dialogs);
        await page.screenshot({ path: screenshotPath("chat-share-continued-1440-light.png") });
      }
      await page.close();
    }

    // The owner's Settings list, then revoke: the page is the not-found page at once.
    await ownerPage.goto("/settings");
    await ownerPage.getByRole("tab", { name: "Your chats" }).click();
    const list = ownerPage.getByRole("list", { name: "Share links" });
    await list.getByRole("textbox", { name: /^Link to / }).waitFor();
    await ownerPage.screenshot({ path: screenshotPath("chat-share-settings-1440-light.png"), fullPage: true });
    await list.getByRole("button", { name: "Revoke" }).click();
    await ownerPage.getByRole("dialog", { name: "Revoke this link?" }).getByRole("button", { name: "Revoke" }).click();
    await ownerPage.getByText('No shared links yet. Open a chat and choose "Share link" to make one.').waitFor();
    const gone = await h.newPage({ width: 1440, height: 900 });
    const response = await gone.goto(`/share/${token}`);
    expect(response?.status()).toBe(404);
    await gone.getByTestId("not-found").waitFor();
    await gone.screenshot({ path: screenshotPath("chat-share-revoked-1440-light.png") });
  });

  it("lists every link for an admin, with revoke", { timeout: 120_000 }, async () => {
    if (admin?.role !== "admin") throw new Error("the first account should be an admin");
    const someone = await registerViaApi(h, uniqueAccount("sharer"));
    const api = await apiAs(h, someone);
    const chatId = (await api.post("/api/chats", {})).json().id as number;
    await api.post(`/api/chats/${chatId}/messages`, { content: "Tide tables for sailors" });
    const token = (await api.post(`/api/chats/${chatId}/shares`, {})).json().token as string;
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, admin);
    await page.goto("/admin/shares");
    const row = page.locator(`tr[data-share-token="${token}"]`);
    await row.getByText("Tide tables for sailors").waitFor();
    await row.getByText("Active").waitFor();
    expect(await audit(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath("chat-share-admin-1440-light.png") });
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog", { name: "Revoke this link?" }).getByRole("button", { name: "Revoke" }).click();
    await row.getByText("Revoked").waitFor();
    expect((await fetch(`${h.baseUrl}/api/shares/${token}`)).status).toBe(404);
  });
});
