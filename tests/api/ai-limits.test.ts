// Limits on AI use (issue 14): replies plus course runs running at once per user (admins too), lessons per approve,
// and the attachments of one message in all. Beyond a limit: 429 (400 for the attachments) naming it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ATTACHMENTS } from "../../src/shared/constants.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { courseAiApi, coursesApi, outlineDraftSchema } from "../../src/shared/contracts/courses.js";
import { FAKE_OUTLINE } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat, pointPlatformAt } from "../helpers/chat-setup.js";

type Outline = CallInput<typeof courseAiApi.approveOutline>["body"]["outline"];
type ReplyBody = CallInput<typeof chatsApi.reply>["body"];
/** The fake's outline, read as the contract types an outline. */
const OUTLINE = outlineDraftSchema.parse(FAKE_OUTLINE);

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
  expect((await admin.call(adminUsersApi.update, { params: { id: registered.user.id }, body: { planType: "earlyAccess" } })).status).toBe(
    200,
  );
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
  const body = { content: "stay #hang" };
  // Over a socket (the reply must stay open while the others are asked), so sent with fetch at the contract's address.
  const res = await fetch(`${base}${requestFor(chatsApi.reply, { params: { id: chatId }, body }).url}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: client.sessionCookie ?? "" },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (res.status === 200) void res.body?.cancel().catch(() => {});
  return res.status;
}

async function stopAll(client: CookieClient, chatIds: number[]) {
  for (const id of chatIds) await client.call(chatsApi.stop, { params: { id } });
}
const reply = (client: CookieClient, id: number | undefined, body: ReplyBody) =>
  client.call(chatsApi.reply, { params: { id: Number(id) }, body });
const messages = async (client: CookieClient, id: number | undefined) =>
  (await client.ok(chatsApi.messages, { params: { id: Number(id) } })).items;
const newCourse = (title: string) => author.ok(coursesApi.create, { body: { title } });
const approve = (id: number, outline: Outline = OUTLINE) => author.call(courseAiApi.approveOutline, { params: { id }, body: { outline } });
const stopRun = (id: number) => author.call(courseAiApi.stopGeneration, { params: { id } });
const resume = (id: number) => author.call(courseAiApi.resumeGeneration, { params: { id } });

describe("replies and course runs running at once, per user", () => {
  it("six replies at once in six chats: three start, three get 429 naming the limit; a Stop frees a place", async () => {
    const chats = await Promise.all(Array.from({ length: 6 }, () => newChat(author)));
    const statuses = await Promise.all(chats.map((c) => hangingReply(author, c.id)));
    expect(statuses.filter((s) => s === 200).length).toBe(3);
    expect(statuses.filter((s) => s === 429).length).toBe(3);
    const refusedChat = chats[statuses.indexOf(429)];
    const refused = await reply(author, refusedChat?.id, { content: "one more" });
    expect(refused.status).toBe(429);
    expect(refused.error.message).toMatch(/at most 3 AI replies and course generations running at once/);
    // Nothing was stored for a refused reply.
    expect(await messages(author, refusedChat?.id)).toEqual([]);

    // A course run counts too.
    const course = await newCourse("Limits");
    const approved = await approve(course.id);
    expect(approved.status).toBe(429);
    expect(approved.error.message).toMatch(/at most 3/);

    // Someone else is not limited by this user.
    const theirs = await newChat(other);
    expect((await reply(other, theirs.id, { content: "hello" })).status).toBe(200);

    const running = chats.filter((_, i) => statuses[i] === 200).map((c) => c.id);
    await stopAll(author, running.slice(0, 1));
    expect((await approve(course.id)).status).toBe(201);
    await stopRun(course.id);
    await stopAll(author, running);
  });

  it("admins are limited the same way", async () => {
    const chats = await Promise.all(Array.from({ length: 4 }, () => newChat(admin)));
    const statuses: number[] = [];
    for (const chat of chats.slice(0, 3)) statuses.push(await hangingReply(admin, chat.id));
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await reply(admin, chats[3]?.id, { content: "fourth" });
    expect(fourth.status).toBe(429);
    expect(fourth.error.message).toMatch(/at most 3/);
    await stopAll(admin, chats.map((c) => c.id).slice(0, 1));
    expect((await reply(admin, chats[3]?.id, { content: "fourth" })).status).toBe(200);
    await stopAll(
      admin,
      chats.map((c) => c.id),
    );
  });

  it("a resume counts like an approve", async () => {
    const course = await newCourse("Resume limit");
    const outline = {
      modules: [{ title: "Slow", description: "", lessons: [{ title: "Wait #hang", type: "reading" as const, summary: "" }] }],
    };
    expect((await approve(course.id, outline)).status).toBe(201);
    expect((await stopRun(course.id)).data?.status).toBe("stopped");
    const chats = await Promise.all(Array.from({ length: 3 }, () => newChat(author)));
    for (const chat of chats) expect(await hangingReply(author, chat.id)).toBe(200);
    const resumed = await resume(course.id);
    expect(resumed.status).toBe(429);
    await stopAll(author, [chats[0]?.id ?? 0]);
    expect((await resume(course.id)).status).toBe(200);
    await stopRun(course.id);
    await stopAll(
      author,
      chats.map((c) => c.id),
    );
  });
});

describe("lessons per approve", () => {
  it("an outline of more lessons than the limit gets 429 naming it and creates nothing; at the limit it goes through", async () => {
    const course = await newCourse("Big outline");
    const five = {
      modules: [
        ...OUTLINE.modules,
        { title: "Extra", description: "", lessons: [{ title: "Fifth", type: "reading" as const, summary: "" }] },
      ],
    };
    const refused = await approve(course.id, five);
    expect(refused.status).toBe(429);
    expect(refused.error.message).toMatch(/at most 4 lessons with AI; this outline has 5/);
    expect(await author.ok(coursesApi.modules, { params: { id: course.id } })).toEqual([]);
    const accepted = await approve(course.id);
    expect(accepted.status).toBe(201);
    expect(accepted.data.total).toBe(4);
    for (let i = 0; i < 100 && (await author.ok(courseAiApi.generation, { params: { id: course.id } }))?.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe("attachments of one message", () => {
  it(`are capped at ${ATTACHMENTS.maxTotalChars} characters in all (each file under its own cap), with a clear 400`, async () => {
    const chat = await newChat(other);
    const file = (name: string, size: number) => ({ name, content: "x".repeat(size) });
    const tooMuch = await reply(other, chat.id, {
      content: "read these",
      attachments: [file("a.txt", 200_000), file("b.txt", 100_001)],
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.error.message).toMatch(/at most 300,000 characters in all/);
    expect(await messages(other, chat.id)).toEqual([]);
    const fits = await reply(other, chat.id, {
      content: "read these",
      attachments: [file("a.txt", 200_000), file("b.txt", 100_000)],
    });
    expect(fits.status).toBe(200);
  });
});
