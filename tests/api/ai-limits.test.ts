// Limits on AI use (issue 14): replies plus course runs running at once per user (admins too), lessons per approve,
// and the attachments of one message in all. Beyond a limit: 429 (400 for the attachments) naming it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACHMENTS } from "../../src/shared/constants.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat, pointPlatformAt } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let base: string;
let admin: CookieClient;
let author: CookieClient;
let other: CookieClient;
const open: AbortController[] = [];

/** Three running at once per user, four lessons per approve (small, so the test stays quick). */
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: "3", AI_MAX_LESSONS_PER_APPROVE: "4" } });
  const first = await registerAndSignIn(t.app);
  admin = first.client;
  await pointPlatformAt(admin, "openai", fake);
  const registered = await registerAndSignIn(t.app);
  author = registered.client;
  expect((await admin.patch(`/api/admin/users/${registered.user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
  other = (await registerAndSignIn(t.app)).client;
  base = await t.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await t?.close();
  await fake?.close();
});

/** A reply that stays running (#hang: one piece, then silence) over a real connection, until Stop. */
async function hangingReply(client: CookieClient, chatId: number): Promise<number> {
  const controller = new AbortController();
  open.push(controller);
  const res = await fetch(`${base}/api/chats/${chatId}/reply`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: client.sessionCookie ?? "" },
    body: JSON.stringify({ content: "stay #hang" }),
    signal: controller.signal,
  });
  if (res.status === 200) void res.body?.cancel().catch(() => {});
  return res.status;
}

async function stopAll(client: CookieClient, chatIds: number[]) {
  for (const id of chatIds) await client.post(`/api/chats/${id}/stop`, {});
}

describe("replies and course runs running at once, per user", () => {
  it("six replies at once in six chats: three start, three get 429 naming the limit; a Stop frees a place", async () => {
    const chats = await Promise.all(Array.from({ length: 6 }, () => newChat(author)));
    const statuses = await Promise.all(chats.map((c) => hangingReply(author, c.id)));
    expect(statuses.filter((s) => s === 200).length).toBe(3);
    expect(statuses.filter((s) => s === 429).length).toBe(3);
    const refusedChat = chats[statuses.indexOf(429)];
    const refused = await author.post(`/api/chats/${refusedChat?.id}/reply`, { content: "one more" });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/at most 3 AI replies and course generations running at once/);
    // Nothing was stored for a refused reply.
    expect((await author.get(`/api/chats/${refusedChat?.id}/messages`)).json()).toEqual([]);

    // A course run counts too.
    const course = (await author.post("/api/courses", { title: "Limits" })).json() as { id: number };
    const approve = await author.post(`/api/courses/${course.id}/generate/approve`, { outline: FAKE_OUTLINE });
    expect(approve.statusCode).toBe(429);
    expect(approve.json().message).toMatch(/at most 3/);

    // Someone else is not limited by this user.
    const theirs = await newChat(other);
    expect((await other.post(`/api/chats/${theirs.id}/reply`, { content: "hello" })).statusCode).toBe(200);

    const running = chats.filter((_, i) => statuses[i] === 200).map((c) => c.id);
    await stopAll(author, running.slice(0, 1));
    expect((await author.post(`/api/courses/${course.id}/generate/approve`, { outline: FAKE_OUTLINE })).statusCode).toBe(201);
    await author.post(`/api/courses/${course.id}/generation/stop`);
    await stopAll(author, running);
  });

  it("admins are limited the same way", async () => {
    const chats = await Promise.all(Array.from({ length: 4 }, () => newChat(admin)));
    const statuses: number[] = [];
    for (const chat of chats.slice(0, 3)) statuses.push(await hangingReply(admin, chat.id));
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await admin.post(`/api/chats/${chats[3]?.id}/reply`, { content: "fourth" });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toMatch(/at most 3/);
    await stopAll(admin, chats.map((c) => c.id).slice(0, 1));
    expect((await admin.post(`/api/chats/${chats[3]?.id}/reply`, { content: "fourth" })).statusCode).toBe(200);
    await stopAll(
      admin,
      chats.map((c) => c.id),
    );
  });

  it("a resume counts like an approve", async () => {
    const course = (await author.post("/api/courses", { title: "Resume limit" })).json() as { id: number };
    const outline = { modules: [{ title: "Slow", description: "", lessons: [{ title: "Wait #hang", type: "reading", summary: "" }] }] };
    expect((await author.post(`/api/courses/${course.id}/generate/approve`, { outline })).statusCode).toBe(201);
    expect((await author.post(`/api/courses/${course.id}/generation/stop`)).json().status).toBe("stopped");
    const chats = await Promise.all(Array.from({ length: 3 }, () => newChat(author)));
    for (const chat of chats) expect(await hangingReply(author, chat.id)).toBe(200);
    const resume = await author.post(`/api/courses/${course.id}/generation/resume`);
    expect(resume.statusCode).toBe(429);
    await stopAll(author, [chats[0]?.id ?? 0]);
    expect((await author.post(`/api/courses/${course.id}/generation/resume`)).statusCode).toBe(200);
    await author.post(`/api/courses/${course.id}/generation/stop`);
    await stopAll(
      author,
      chats.map((c) => c.id),
    );
  });
});

describe("lessons per approve", () => {
  it("an outline of more lessons than the limit gets 429 naming it and creates nothing; at the limit it goes through", async () => {
    const course = (await author.post("/api/courses", { title: "Big outline" })).json() as { id: number };
    const five = {
      modules: [...FAKE_OUTLINE.modules, { title: "Extra", description: "", lessons: [{ title: "Fifth", type: "reading", summary: "" }] }],
    };
    const refused = await author.post(`/api/courses/${course.id}/generate/approve`, { outline: five });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/at most 4 lessons with AI; this outline has 5/);
    expect((await author.get(`/api/courses/${course.id}/modules`)).json()).toEqual([]);
    const accepted = await author.post(`/api/courses/${course.id}/generate/approve`, { outline: FAKE_OUTLINE });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().total).toBe(4);
    for (let i = 0; i < 100 && (await author.get(`/api/courses/${course.id}/generation`)).json().status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe("attachments of one message", () => {
  it(`are capped at ${ATTACHMENTS.maxTotalChars} characters in all (each file under its own cap), with a clear 400`, async () => {
    const chat = await newChat(other);
    const file = (name: string, size: number) => ({ name, content: "x".repeat(size) });
    const tooMuch = await other.post(`/api/chats/${chat.id}/reply`, {
      content: "read these",
      attachments: [file("a.txt", 200_000), file("b.txt", 100_001)],
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toMatch(/at most 300,000 characters in all/);
    expect((await other.get(`/api/chats/${chat.id}/messages`)).json()).toEqual([]);
    const fits = await other.post(`/api/chats/${chat.id}/reply`, {
      content: "read these",
      attachments: [file("a.txt", 200_000), file("b.txt", 100_000)],
    });
    expect(fits.statusCode).toBe(200);
  });
});
