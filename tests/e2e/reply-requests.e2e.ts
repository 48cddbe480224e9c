// Issue 28: what the browser asks the server around a reply. A new chat takes its personality in its create call
// (no PATCH after it), and a reply's done event carries the chat, the reply's place in the branch and the usage, so
// nothing is read again once it ends: the chat's title, the sidebar, the version counter and the usage meter follow
// from the event alone.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { recordApi } from "./support/record-api.js";

const h = startHarness();
let fake: FakeProvider;
let member: Awaited<ReturnType<typeof registerViaApi>>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  const admin = new CookieClient(h.app);
  const adminAccount = await registerViaApi(h, uniqueAccount("admin"));
  expect((await admin.post("/api/login", { username: adminAccount.username, password: adminAccount.password })).statusCode).toBe(200);
  const openai = ((await admin.get("/api/ai-platforms")).json() as { id: number; slug: string }[]).find((p) => p.slug === "openai");
  if (!openai) throw new Error("the openai platform is not seeded");
  const saved = await admin.patch(`/api/admin/ai-platforms/${openai.id}`, {
    apiKey: "sk-test-valid-key-123456",
    baseUrl: fake.url,
    settings: { models: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  // A daily allowance, so the usage meter shows what is left and must follow each reply.
  const limits = { free: { monthlyTokens: null, messagesPerDay: 50 }, earlyAccess: { monthlyTokens: null, messagesPerDay: 50 } };
  expect((await admin.request({ method: "PUT", url: "/api/admin/plan-allowances", payload: limits })).statusCode).toBe(200);
  member = await registerViaApi(h, uniqueAccount("member"));
  expect((await admin.patch(`/api/admin/users/${member.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
  const own = new CookieClient(h.app);
  expect((await own.post("/api/login", { username: member.username, password: member.password })).statusCode).toBe(200);
  const tutor = { name: "Tide Tutor", description: "", tone: "calm", instructions: "Explain gently.", temperature: 0.5, maxTokens: 512 };
  expect((await own.post("/api/personalities", tutor)).statusCode).toBe(201);
});
afterAll(async () => {
  await fake?.close();
});

/**
 * The reply is over when Send is back; then a moment for anything asked after it. A fixed wait: the tests count the
 * requests made, and that no more follow is an absence, with no event to wait for.
 */
async function replyEnded(page: Page) {
  await page.getByRole("button", { name: "Send message" }).waitFor();
  await page.waitForTimeout(1500);
}

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

const meter = (page: Page) => page.getByTestId("usage-meter");

describe("the requests around a reply", () => {
  it("create a new chat with its personality in one call, and read nothing again after each reply", async () => {
    const page = await h.newPage();
    await signIn(page, member);
    await page.goto("/chat");
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await expect.poll(() => meter(page).innerText()).toContain("50 messages left today");
    await page.getByRole("button", { name: /^Personality:/ }).click();
    await page.getByRole("menuitemradio", { name: "Tide Tutor" }).click();
    await page.getByRole("button", { name: "Personality: Tide Tutor" }).waitFor();

    // The first message: the chat is created (with its personality), then the reply streams.
    let requests = recordApi(page);
    await send(page, "How do tides work?");
    await page.waitForURL(/\/chat\/\d+$/);
    await replyEnded(page);
    console.log(`first message of a new chat: ${requests.length} requests: ${requests.join(", ")}`);
    expect.soft(requests).toEqual(["POST /api/chats", "POST /api/chats/:id/reply"]);
    // What used to be read again follows from the done event: the title, the sidebar, the meter.
    await page.getByRole("heading", { name: "How do tides work?", exact: true }).waitFor();
    await page.getByRole("complementary", { name: "Chat history" }).getByText("How do tides work?").waitFor();
    await expect.poll(() => meter(page).innerText()).toContain("49 messages left today");
    await page.getByRole("button", { name: "Personality: Tide Tutor" }).waitFor();

    // A second message in the same chat.
    requests = recordApi(page);
    await send(page, "And the moon?");
    await replyEnded(page);
    console.log(`second message: ${requests.length} requests: ${requests.join(", ")}`);
    expect.soft(requests).toEqual(["POST /api/chats/:id/reply"]);
    await page.locator('[data-message-role="assistant"]').last().getByText("Echo: And the moon?").waitFor();
    await expect.poll(() => meter(page).innerText()).toContain("48 messages left today");

    // A regenerate: the new version shows as the second of two, from the event.
    requests = recordApi(page);
    await page.getByRole("button", { name: "Regenerate reply" }).click();
    await replyEnded(page);
    console.log(`regenerate: ${requests.length} requests: ${requests.join(", ")}`);
    expect.soft(requests).toEqual(["POST /api/chats/:id/regenerate"]);
    await page.getByRole("group", { name: "Versions of this message" }).last().getByText("2 / 2").waitFor();

    // And the page as read from scratch shows the same.
    await page.reload();
    await page.getByRole("group", { name: "Versions of this message" }).last().getByText("2 / 2").waitFor();
    expect(await page.locator('[data-message-role="user"]').count()).toBe(2);
    await page.getByRole("heading", { name: "How do tides work?", exact: true }).waitFor();
    await page.getByRole("button", { name: "Personality: Tide Tutor" }).waitFor();
  });
});
