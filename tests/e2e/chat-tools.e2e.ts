import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { audit } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { shootViews } from "./support/screenshot-path.js";

// Issue 34 in the chat: the composer's Tools menu (switches per chat), a reply's tool calls as cards streamed where
// they happen, a call that asks first (Approve goes on, Deny ends with the denial, a reload keeps the buttons), and a
// personality's default tools. The provider stand-in calls the tools a message names (`#tool=NAME{json}`,
// tests/fakes/fake-tools.ts); the MCP server is the real stand-in built with the SDK (tests/fakes/mcp-server.ts).
const h = startHarness();
let fake: FakeProvider;
let mcp: McpFake;
let adminApi: CookieClient;
let serverId: number;
const MODEL = "gpt-4o-mini";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  mcp = await startMcpFake({ slowMs: 2000 });
  adminApi = await adminWithStandIn(h, fake, { models: [MODEL], freeModels: [MODEL], defaultModel: MODEL });
  const created = await adminApi.post("/api/admin/mcp-servers", { name: "Lab tools", url: mcp.url, plans: ["free", "earlyAccess"] });
  expect(created.statusCode, created.body).toBe(201);
  serverId = (created.json() as { id: number }).id;
  const refreshed = await adminApi.post(`/api/admin/mcp-servers/${serverId}/refresh`, {});
  expect(refreshed.statusCode, refreshed.body).toBe(200);
  // `echo` asks the user before each call; `fails` and `big` are not offered.
  const chosen = await adminApi.patch(`/api/admin/mcp-servers/${serverId}`, {
    tools: [
      { name: "echo", needsApproval: true },
      { name: "fails", enabled: false },
      { name: "big", enabled: false },
    ],
  });
  expect(chosen.statusCode, chosen.body).toBe(200);
});
afterAll(async () => {
  await fake?.close();
  await mcp?.close();
});

const ECHO = () => `mcp:${serverId}:echo`;
const ECHO_MODEL_NAME = () => `mcp${serverId}_echo`;

async function member(prefix = "tools") {
  const account = await registerViaApi(h, uniqueAccount(prefix));
  return { account, api: await apiAs(h, account) };
}

const box = (page: Page) => page.getByRole("textbox", { name: "Message" });
const lastReply = (page: Page) => page.locator('[data-message-role="assistant"]').last();
const toolsButton = (page: Page) => page.getByRole("button", { name: /^Tools/ });
const card = (page: Page, name: string) => lastReply(page).locator("[data-tool-call]", { hasText: name });
const chatIdOf = (page: Page) => Number(new URL(page.url()).pathname.split("/")[2]);

async function send(page: Page, text: string) {
  await box(page).fill(text);
  await expect.poll(() => page.getByRole("button", { name: "Send message" }).isEnabled(), { timeout: 20_000 }).toBe(true);
  await box(page).press("Enter");
}

async function waitForReplyEnd(page: Page) {
  await page.getByRole("button", { name: "Send message" }).waitFor({ timeout: 20_000 });
}

/** The note above the composer while the reply shown last waits for an answer (decision 050). */
const pausedNotice = (page: Page) => page.getByRole("status").filter({ hasText: "The reply waits for your answer to a tool call." });

/** A new chat of the member's with `echo` (it asks first) switched on. */
async function echoChat(api: CookieClient) {
  const created = await api.post("/api/chats", {});
  const chatId = (created.json() as { id: number }).id;
  expect((await api.patch(`/api/chats/${chatId}`, { tools: [ECHO()] })).statusCode).toBe(200);
  return { chatId };
}

async function statusOf(locator: Locator) {
  return locator.getAttribute("data-tool-status");
}

/** A new member's chat with `echo` on, open on a page, its reply paused on `echo {text}` (it asks first). */
async function pausedOnScreen(prefix: string, text: string) {
  const { account, api } = await member(prefix);
  const { chatId } = await echoChat(api);
  const page = await newPage();
  await signIn(page, account);
  await page.goto(`/chat/${chatId}`);
  await box(page).waitFor();
  await send(page, `Echo this #tool=${ECHO_MODEL_NAME()}{"text":"${text}"}`);
  await expect.poll(() => statusOf(card(page, "echo")), { timeout: 20_000 }).toBe("awaiting-approval");
  await waitForReplyEnd(page);
  return { page, api, chatId };
}

/** A page whose theme follows the system's, so a screenshot can be taken light and dark without a reload. */
async function newPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

async function expectNoAxeFindings(page: Page) {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    // The theme's colours change with transitions: audit the colours they end on.
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running"));
    expect(JSON.stringify(await audit(page), null, 1), theme).toBe("[]");
  }
  await page.emulateMedia({ colorScheme: "light" });
}

describe("tools in the chat", () => {
  it("switches a tool on by keyboard, and the reply's call streams as a card that opens to its arguments and result", async () => {
    const { account, api } = await member();
    const page = await newPage();
    await signIn(page, account);
    await page.goto("/chat");
    await box(page).waitFor();

    // The menu by keyboard: focus the button, Enter opens it, arrows move, Space switches, the menu stays open.
    await toolsButton(page).focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    const items = menu.getByRole("menuitemcheckbox");
    await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(5);
    // Built-in first, then the MCP server's tools under its name; the one that asks first is marked.
    expect(await items.allInnerTexts()).toEqual([
      expect.stringContaining("Search my files"),
      expect.stringContaining("Current date and time"),
      expect.stringContaining("echo"),
      expect.stringContaining("add"),
      expect.stringContaining("slow"),
    ]);
    expect(await menu.getByRole("group", { name: "Lab tools" }).count()).toBe(1);
    expect(await items.nth(2).innerText()).toContain("Asks first");
    expect(await items.nth(3).innerText()).not.toContain("Asks first");
    const clock = menu.getByRole("menuitemcheckbox", { name: /Current date and time/ });
    expect(await clock.getAttribute("aria-checked")).toBe("false");
    while (!(await clock.evaluate((el) => el === document.activeElement))) await page.keyboard.press("ArrowDown");
    await page.keyboard.press(" ");
    await expect.poll(() => clock.getAttribute("aria-checked")).toBe("true");
    await menu.waitFor(); // still open
    await shootViews(page, "chat-tools-toggles");
    await expectNoAxeFindings(page);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Tools, 1 on", exact: true }).waitFor();

    // The first message creates the chat with the tool switched on, and the stand-in calls it.
    await send(page, "What time is it? #tool=current_time");
    const timeCard = card(page, "Current date and time");
    await timeCard.waitFor({ timeout: 20_000 });
    await expect.poll(() => statusOf(timeCard), { timeout: 20_000 }).toBe("done");
    await lastReply(page).getByText("Tool results:").waitFor({ timeout: 20_000 });
    await waitForReplyEnd(page);
    const chat = (await api.get(`/api/chats/${chatIdOf(page)}`)).json() as { tools: string[] };
    expect(chat.tools).toEqual(["builtin:current_time"]);
    const requestTools = JSON.parse(fake.requests.at(-1)?.rawBody ?? "{}") as { tools?: { function: { name: string } }[] };
    expect(requestTools.tools?.map((t) => t.function.name)).toEqual(["current_time"]);

    // Collapsed by default; a disclosure button opens the arguments and the result, as text.
    const disclosure = timeCard.getByRole("button", { name: /Current date and time/ });
    expect(await disclosure.getAttribute("aria-expanded")).toBe("false");
    expect(await timeCard.locator("[data-tool-result]").count()).toBe(0);
    await disclosure.focus();
    await page.keyboard.press("Enter");
    expect(await disclosure.getAttribute("aria-expanded")).toBe("true");
    const result = timeCard.locator("[data-tool-result]");
    await result.waitFor();
    expect(await result.innerText()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(await timeCard.getByText("Arguments").count()).toBe(1);
    // The reply's text after the call, below the card.
    expect(await lastReply(page).innerText()).toMatch(/Current date and time[\s\S]*Tool results:/);
    await shootViews(page, "chat-tools-card");
    await expectNoAxeFindings(page);

    // A reload shows the stored card, collapsed again.
    await page.reload();
    await card(page, "Current date and time").waitFor();
    expect(await statusOf(card(page, "Current date and time"))).toBe("done");
  });

  it("pauses on a call that asks first: a reload keeps Approve / Deny, Approve goes on, Deny ends with the denial", async () => {
    const { account, api } = await member();
    const { chatId } = await echoChat(api);
    const page = await newPage();
    await signIn(page, account);
    await page.goto(`/chat/${chatId}`);
    await box(page).waitFor();
    await page.getByRole("button", { name: "Tools, 1 on", exact: true }).waitFor();

    await send(page, `Echo this #tool=${ECHO_MODEL_NAME()}{"text":"hello <b>lab</b>"}`);
    const echo = card(page, "echo");
    await echo.waitFor({ timeout: 20_000 });
    await expect.poll(() => statusOf(echo), { timeout: 20_000 }).toBe("awaiting-approval");
    await echo.getByRole("button", { name: "Approve echo" }).waitFor();
    await waitForReplyEnd(page); // the reply's stream ended with the pause
    expect(mcp.calls.filter((c) => c.name === "echo")).toHaveLength(0);
    // Decision 060: the card opens by itself, the arguments shown above the question about them, with no click.
    expect(await echo.getByRole("button", { name: /echo/ }).first().getAttribute("aria-expanded")).toBe("true");
    await echo.getByText('"hello <b>lab</b>"').waitFor();
    await echo.getByText("Run it with these arguments?").waitFor();
    await shootViews(page, "chat-tools-approval");
    await expectNoAxeFindings(page);

    // A reload during the pause: the card is still there with its buttons.
    await page.reload();
    const paused = card(page, "echo");
    await paused.waitFor();
    expect(await statusOf(paused)).toBe("awaiting-approval");
    const approve = paused.getByRole("button", { name: "Approve echo" });
    await approve.waitFor();
    await paused.getByText('"hello <b>lab</b>"').waitFor();
    expect(await paused.getByRole("button", { name: "Deny echo" }).isEnabled()).toBe(true);

    // Approve (by keyboard): the call runs and the reply goes on streaming on this screen.
    await approve.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => statusOf(card(page, "echo")), { timeout: 20_000 }).toBe("done");
    await lastReply(page).getByText("Tool results: Echo: hello").waitFor({ timeout: 20_000 });
    await waitForReplyEnd(page);
    expect(mcp.calls.filter((c) => c.name === "echo")).toEqual([{ name: "echo", args: { text: "hello <b>lab</b>" } }]);
    expect(await card(page, "echo").getByRole("button", { name: "Approve echo" }).count()).toBe(0);
    // The result is the tool's text, shown as text: its markup is not HTML (the card stays open once answered).
    const disclosure = card(page, "echo").getByRole("button", { name: /echo/ }).first();
    if ((await disclosure.getAttribute("aria-expanded")) !== "true") await disclosure.click();
    const echoed = card(page, "echo").locator("[data-tool-result]");
    await echoed.waitFor();
    expect(await echoed.innerText()).toBe("Echo: hello <b>lab</b>");
    expect(await echoed.locator("b").count()).toBe(0);

    // Deny: the tool is never called, the model is told, and the reply ends.
    await send(page, `Once more #tool=${ECHO_MODEL_NAME()}{"text":"not this"}`);
    const second = card(page, "echo");
    await expect.poll(() => statusOf(second), { timeout: 20_000 }).toBe("awaiting-approval");
    await waitForReplyEnd(page);
    await second.getByRole("button", { name: "Deny echo" }).click();
    await expect.poll(() => statusOf(card(page, "echo")), { timeout: 20_000 }).toBe("denied");
    await lastReply(page).getByText("Tool results: The user denied this call.").waitFor({ timeout: 20_000 });
    await waitForReplyEnd(page);
    expect(mcp.calls.filter((c) => c.name === "echo")).toHaveLength(1);
    const stored = (await api.get(`/api/chats/${chatId}/messages`)).json() as { role: string; status: string }[];
    expect(stored.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
  });

  it("a new message while a reply waits ends it without running the call; the composer says so first", async () => {
    const calls = mcp.calls.length;
    const { page } = await pausedOnScreen("paused", "later");
    const notice = pausedNotice(page);
    await notice.waitFor();
    expect(await notice.innerText()).toContain("A new message ends it without running the call.");
    await shootViews(page, "chat-tools-paused-notice");
    await expectNoAxeFindings(page);

    // The new message goes on; the paused reply ends at once, its call denied with the reason, and is never run.
    await send(page, "Never mind, something else");
    const ended = page.locator("[data-tool-call]", { hasText: "echo" }).first();
    await expect.poll(() => statusOf(ended), { timeout: 20_000 }).toBe("denied");
    await lastReply(page).getByText("Echo: Never mind, something else").waitFor({ timeout: 20_000 });
    await waitForReplyEnd(page);
    await page.getByText("Ended by a new message before its tool call was answered.").waitFor();
    expect(await notice.count()).toBe(0);
    expect(await page.getByRole("button", { name: "Approve echo" }).count()).toBe(0);
    expect(mcp.calls.length).toBe(calls);
    // Opened while it waited (decision 060), it stays open once ended.
    const endedDisclosure = ended.getByRole("button", { name: /echo/ }).first();
    if ((await endedDisclosure.getAttribute("aria-expanded")) !== "true") await endedDisclosure.click();
    await ended.getByText("The reply was ended before this call was answered.").waitFor();
    await shootViews(page, "chat-tools-paused-left");
    await expectNoAxeFindings(page);
    // Stored so: a reload shows the same.
    await page.reload();
    await page.getByText("Ended by a new message before its tool call was answered.").waitFor();
    expect(await statusOf(page.locator("[data-tool-call]", { hasText: "echo" }).first())).toBe("denied");
  });

  it("End the reply stops a reply that waits for an answer; an approval afterwards is refused", async () => {
    const { page, api, chatId } = await pausedOnScreen("stopped", "stop me");
    await pausedNotice(page).getByRole("button", { name: "End the reply" }).click();
    await expect.poll(() => statusOf(card(page, "echo")), { timeout: 20_000 }).toBe("denied");
    await lastReply(page).getByText("Stopped before the end.").waitFor();
    expect(await pausedNotice(page).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Approve echo" }).count()).toBe(0);
    const callId = ((await api.get(`/api/chats/${chatId}/messages`)).json() as { toolCalls: { id: string }[] }[]).at(-1)?.toolCalls[0]?.id;
    expect((await api.post(`/api/chats/${chatId}/tool-calls/${callId}/approve`, {})).statusCode).toBe(409);
    await shootViews(page, "chat-tools-paused-stopped");
    await expectNoAxeFindings(page);
  });

  it("shows a call as it runs, before the reply goes on", async () => {
    const { account, api } = await member();
    const created = await api.post("/api/chats", {});
    const chatId = (created.json() as { id: number }).id;
    expect((await api.patch(`/api/chats/${chatId}`, { tools: [`mcp:${serverId}:slow`] })).statusCode).toBe(200);
    const page = await newPage();
    await signIn(page, account);
    await page.goto(`/chat/${chatId}`);
    await box(page).waitFor();
    await send(page, `Take your time #tool=mcp${serverId}_slow`);
    // The tool answers after 2 s: meanwhile its card is there, running, and the reply is still being written.
    const slow = card(page, "slow");
    await expect.poll(() => statusOf(slow), { timeout: 20_000 }).toBe("running");
    expect(await page.getByRole("button", { name: "Stop generating" }).count()).toBe(1);
    expect(await slow.getByRole("status").count()).toBe(0); // the spinner is decorative; the words say "Running"
    expect(await slow.innerText()).toContain("Running");
    await expect.poll(() => statusOf(slow), { timeout: 20_000 }).toBe("done");
    await lastReply(page).getByText("Tool results: Finally done").waitFor({ timeout: 20_000 });
  });

  it("puts a switch back and says why when the server refuses it", async () => {
    const { account, api } = await member();
    const created = await api.post("/api/chats", {});
    const chatId = (created.json() as { id: number }).id;
    const page = await newPage();
    await signIn(page, account);
    await page.goto(`/chat/${chatId}`);
    await box(page).waitFor();
    await toolsButton(page).click();
    const menu = page.getByRole("menu");
    const add = menu.getByRole("menuitemcheckbox", { name: /add/ });
    await add.waitFor({ timeout: 10_000 });
    // Meanwhile the admin keeps the server for Early Access: the free user's switch is refused.
    const limited = await adminApi.patch(`/api/admin/mcp-servers/${serverId}`, { plans: ["earlyAccess"] });
    expect(limited.statusCode, limited.body).toBe(200);
    try {
      await add.click();
      const toast = page.locator("[data-sonner-toast]", { hasText: "Could not change the tools" }).first();
      await toast.waitFor();
      expect(await toast.innerText()).toMatch(/not available/i);
      await expect.poll(() => add.getAttribute("aria-checked")).toBe("false");
      expect((await api.get(`/api/chats/${chatId}`)).json()).toMatchObject({ tools: [] });
    } finally {
      await adminApi.patch(`/api/admin/mcp-servers/${serverId}`, { plans: ["free", "earlyAccess"] });
    }
  });

  it("gives a personality default tools, which a new chat with it starts with", async () => {
    const { account, api } = await member("persona");
    expect((await adminApi.patch(`/api/admin/users/${account.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
    const page = await newPage();
    await signIn(page, account);
    await page.goto("/personalities");
    await page.getByRole("button", { name: "New Personality" }).click();
    const dialog = page.getByRole("dialog", { name: "New personality" });
    await dialog.getByLabel("Name", { exact: true }).fill("Timekeeper");
    await dialog.getByLabel("Instructions", { exact: true }).fill("Tell the time when asked.");
    const clock = dialog.getByRole("switch", { name: /Current date and time/ });
    await clock.waitFor({ timeout: 10_000 });
    await clock.click();
    expect(await clock.getAttribute("aria-checked")).toBe("true");
    await dialog.getByRole("button", { name: "Create personality" }).click();
    await dialog.waitFor({ state: "detached" });
    const saved = (await api.get("/api/personalities")).json() as { id: number; name: string; tools: string[] }[];
    const timekeeper = saved.find((p) => p.name === "Timekeeper");
    expect(timekeeper?.tools).toEqual(["builtin:current_time"]);

    const created = await api.post("/api/chats", { personalityId: timekeeper?.id });
    expect((created.json() as { tools: string[] }).tools).toEqual(["builtin:current_time"]);
    await page.goto(`/chat/${(created.json() as { id: number }).id}`);
    await box(page).waitFor();
    await page.getByRole("button", { name: "Tools, 1 on", exact: true }).waitFor();
  });
});
