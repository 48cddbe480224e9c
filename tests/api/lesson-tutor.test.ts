import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi, lessonsApi, TUTOR_LESSON_CLOSED } from "../../src/shared/contracts/courses.js";
import { filesApi, type KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { parseEvents, pointPlatformAt, useEmbeddingModel } from "../helpers/chat-setup.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { eventOf } from "../helpers/sse-reader.js";

/**
 * Issue 31's lesson tutor through the API: `POST /api/lessons/:id/tutor` (who may, one chat per user and lesson, races),
 * the tutor's replies (the lesson's text and the course's cited passages in the provider's request, the owner's other
 * pieces never), and what a reader can never obtain of the owner's files (the search, the citation's surroundings, the
 * file routes). The course's sources are inserted as `lesson_sources` rows pointing at real pieces of a file the owner
 * uploaded through the API (the course-writing side is tested on its own).
 */
let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let reader: CookieClient;
let outsider: CookieClient;
let ownerId: number;

const filler = (word: string) => `${word} cells divide and grow while the membrane keeps the inside apart from the outside. `.repeat(60);
// The handbook: three long sections, so each is its own piece. Only the middle one is cited by the course; the codes in
// the others (5512, 6623) and in the other file (7781) must never reach a reader.
const HANDBOOK = [
  `# Cellar\n\nThe wombatine cellar code is 5512. ${filler("Wombatine")}`,
  `# Enzymes\n\nThe quokkatron enzyme unwinds the spiral ladder before the copy begins. ${filler("Quokkatron")}`,
  `# Attic\n\n${filler("Numbatine")} The numbatine attic code is 6623.`,
].join("\n\n");
const VAULT = "# Vault\n\nThe zebrafinch vault code is 7781. The zebrafinch guards the quokkatron vault.";
const LESSON_TEXT = "Tides follow the moon: the lessonmark ocean bulges twice a day.";
const SECRETS = ["5512", "6623", "7781"];

let courseId: number;
let lessonId: number;
let privateLessonId: number;
let handbookId: number;
let vaultId: number;
let citedChunkId: number;

async function upload(client: CookieClient, name: string, text: string): Promise<KnowledgeFile> {
  const multipart = multipartFile("file", name, "text/markdown", new TextEncoder().encode(text));
  const res = await client.call(filesApi.upload, {}, { multipart });
  expect(res.status, res.response.body).toBe(201);
  const file = await settledFile(client, res.data.id);
  expect(file.status).toBe("ready");
  return file;
}

async function courseWithLesson(client: CookieClient, course: { title: string; isPublic: boolean; status: "draft" | "published" }) {
  const made = await client.call(coursesApi.create, { body: course });
  expect(made.status, made.response.body).toBe(201);
  const id = made.data.id;
  const module = await client.call(coursesApi.createModule, { params: { id }, body: { title: "Oceans" } });
  expect(module.status, module.response.body).toBe(201);
  const lesson = await client.call(lessonsApi.create, {
    params: { id: module.data.id },
    body: { title: "The tides", type: "reading", content: LESSON_TEXT },
  });
  expect(lesson.status, lesson.response.body).toBe(201);
  return { courseId: id, lessonId: lesson.data.id };
}

/** The chat requests the stand-in received (it also answers the questions' embeddings). */
const chatRequests = () => fake.requests.filter((r) => Array.isArray((r.body as { messages?: unknown }).messages));

const systemOf = (request: FakeProvider["requests"][number] | undefined) =>
  ((request?.body ?? { messages: [] }) as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role === "system")
    .map((m) => String(m.content))
    .join("\n");

async function openTutor(client: CookieClient, id: number) {
  return client.call(lessonsApi.tutor, { params: { id } });
}

async function usedTokens(client: CookieClient): Promise<number> {
  return (await client.ok(usageApi.mine, {})).tokens.used;
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  const made = await registerAndSignIn(t.app);
  owner = made.client;
  ownerId = made.user.id;
  reader = (await registerAndSignIn(t.app)).client;
  outsider = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  await useEmbeddingModel(admin);

  handbookId = (await upload(owner, "handbook.md", HANDBOOK)).id;
  vaultId = (await upload(owner, "vault.md", VAULT)).id;
  ({ courseId, lessonId } = await courseWithLesson(owner, { title: "Oceans and cells", isPublic: true, status: "published" }));
  ({ lessonId: privateLessonId } = await courseWithLesson(owner, { title: "Private oceans", isPublic: false, status: "published" }));

  // The course cites the handbook's middle piece only.
  const pieces = await t.app.ctx.db.execute(
    sql`select id, content from knowledge_chunks where file_id = ${handbookId} and user_id = ${ownerId} order by chunk_index`,
  );
  const rows = pieces.rows as { id: number; content: string }[];
  const cited = rows.find((row) => row.content.includes("quokkatron enzyme"));
  if (!cited) throw new Error("no piece with the cited passage");
  // The test means something only if the cited piece holds none of the secrets and has neighbours.
  expect(SECRETS.some((code) => cited.content.includes(code))).toBe(false);
  expect(rows.length).toBeGreaterThanOrEqual(3);
  citedChunkId = Number(cited.id);
  await t.app.ctx.db.insert(lessonSources).values({
    lessonId,
    courseId,
    n: 1,
    kind: "file",
    fileId: handbookId,
    chunkId: citedChunkId,
    fileName: "handbook.md",
    page: null,
    passage: cited.content,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("POST /api/lessons/:id/tutor", () => {
  it("gives a reader of a public course their own tutor chat, named after the lesson, the same on a second call", async () => {
    const first = await openTutor(reader, lessonId);
    expect(first.status, first.response.body).toBe(200);
    const { chatId } = first.data;
    const again = await openTutor(reader, lessonId);
    expect(again.data).toEqual({ chatId });

    const chat = await reader.ok(chatsApi.get, { params: { id: chatId } });
    expect(chat).toMatchObject({
      title: "Tutor: The tides",
      aiPlatform: "openai",
      model: "fake-model",
      tutorLesson: { id: lessonId, title: "The tides", courseId },
    });
    // The reader's own chat: the owner cannot open it, and the owner's own tutor chat is another one.
    expect((await owner.call(chatsApi.get, { params: { id: chatId } })).status).toBe(404);
    const owners = (await openTutor(owner, lessonId)).data;
    expect(owners.chatId).not.toBe(chatId);
  });

  it("answers one chat to two racing first calls", async () => {
    const racer = (await registerAndSignIn(t.app)).client;
    const [a, b] = await Promise.all([openTutor(racer, lessonId), openTutor(racer, lessonId)]);
    expect(a.status, a.response.body).toBe(200);
    expect(b.status, b.response.body).toBe(200);
    expect(a.data).toEqual(b.data);
    const count = await t.app.ctx.db.execute(sql`select count(*)::int as n from chats where tutor_lesson_id = ${lessonId}`);
    // The reader's, the owner's and the racer's.
    expect(Number((count.rows[0] as { n: number }).n)).toBe(3);
  });

  it("refuses a private course of someone else's (404), signed out (401), a missing lesson (404); its owner and admins may", async () => {
    const other = await openTutor(outsider, privateLessonId);
    expect(other.status).toBe(404);
    expect(other.response.json()).toEqual({ message: "Lesson not found" });
    expect((await openTutor(outsider, 2_147_483_000)).status).toBe(404);
    const signedOut = await callApp(t.app, lessonsApi.tutor, { params: { id: lessonId } });
    expect(signedOut.status).toBe(401);
    expect((await openTutor(owner, privateLessonId)).status).toBe(200);
    expect((await openTutor(admin, privateLessonId)).status).toBe(200);
    const none = await t.app.ctx.db.execute(
      sql`select count(*)::int as n from chats c join users u on u.id = c.user_id where c.tutor_lesson_id = ${privateLessonId}`,
    );
    expect(Number((none.rows[0] as { n: number }).n)).toBe(2);
  });

  it("leaves other chats without a lesson", async () => {
    const plain = await reader.ok(chatsApi.create, { body: {} });
    expect(plain.tutorLesson).toBeNull();
    const list = await reader.call(chatsApi.list, {});
    expect(list.status).toBe(200);
  });
});

describe("a tutor's reply", () => {
  let chatId: number;
  let replyId: number;

  it("is given the lesson and the course's cited passage, never the owner's other pieces, and cites it", async () => {
    ({ chatId } = (await openTutor(reader, lessonId)).data);
    const [readerBefore, ownerBefore] = [await usedTokens(reader), await usedTokens(owner)];
    const before = chatRequests().length;
    // Words of every piece of the owner's, so a search of the whole library would find them all.
    const res = await reader.call(chatsApi.reply, {
      params: { id: chatId },
      body: {
        content: "What does the quokkatron enzyme do, what is the wombatine cellar code, the numbatine attic and the zebrafinch vault? [1]",
      },
    });
    expect(res.status, res.response.body).toBe(200);
    expect(chatRequests().length).toBe(before + 1);
    const request = chatRequests().at(-1);
    const system = systemOf(request);
    expect(system).toContain(LESSON_TEXT);
    expect(system).toContain('lesson "The tides"');
    expect(system).toContain("[1] handbook.md\n");
    expect(system.slice(system.indexOf("[1] handbook.md"))).toContain("quokkatron enzyme unwinds");
    expect(system).not.toMatch(/^\[2\] /m);
    const wire = JSON.stringify(request?.body);
    for (const code of SECRETS) expect(wire).not.toContain(code);

    const done = eventOf(parseEvents(res.response.body).at(-1), "done");
    replyId = done.assistantMessage.id;
    expect(done.assistantMessage.citations).toEqual([
      expect.objectContaining({ n: 1, fileId: handbookId, fileName: "handbook.md", page: null }),
    ]);
    expect(done.assistantMessage.citations[0]?.excerpt).toContain("quokkatron enzyme");
    // The reply counts against the reader's allowance, not the owner's.
    expect(await usedTokens(reader)).toBeGreaterThan(readerBefore);
    expect(await usedTokens(owner)).toBe(ownerBefore);
  });

  it("goes through regenerate and edit with the same material", async () => {
    const regenerated = await reader.call(chatsApi.regenerate, { params: { id: chatId }, body: {} });
    expect(regenerated.status, regenerated.response.body).toBe(200);
    expect(systemOf(chatRequests().at(-1))).toContain(LESSON_TEXT);
    expect(systemOf(chatRequests().at(-1))).toMatch(/\[1\] handbook\.md/);
    const messages = (await reader.ok(chatsApi.messages, { params: { id: chatId } })).items;
    const question = messages.find((m) => m.role === "user");
    const edited = await reader.call(chatsApi.editMessage, {
      params: { id: chatId, messageId: question?.id },
      body: { content: "Explain the quokkatron. [1]" },
    });
    expect(edited.status, edited.response.body).toBe(200);
    expect(systemOf(chatRequests().at(-1))).toContain(LESSON_TEXT);
    for (const code of SECRETS) expect(JSON.stringify(chatRequests().at(-1)?.body)).not.toContain(code);
  });

  it("shows a reader the cited excerpt only, never the text around it in the owner's file", async () => {
    const opened = await reader.call(chatsApi.citation, { params: { id: chatId, messageId: replyId, n: 1 } });
    expect(opened.status, opened.response.body).toBe(200);
    expect(opened.data).toMatchObject({ n: 1, fileId: handbookId, fileName: "handbook.md", before: "", after: "", headingPath: "" });
    expect(opened.response.body).toContain("quokkatron enzyme");
    for (const code of SECRETS) expect(opened.response.body).not.toContain(code);
    expect(opened.response.body).not.toMatch(/wombatine|numbatine/i);

    // The owner's own tutor chat opens the same piece with its surroundings: the rule is "your own pieces", not "none".
    const { chatId: ownChat } = (await openTutor(owner, lessonId)).data;
    const own = await owner.call(chatsApi.reply, { params: { id: ownChat }, body: { content: "What does the quokkatron enzyme do? [1]" } });
    const ownReply = eventOf(parseEvents(own.response.body).at(-1), "done").assistantMessage;
    const ownOpened = await owner.call(chatsApi.citation, { params: { id: ownChat, messageId: ownReply.id, n: 1 } });
    expect(ownOpened.status).toBe(200);
    expect(ownOpened.data.before.length).toBeGreaterThan(0);
  });

  it("gives a reader nothing of the owner's files through the file routes and the searches", async () => {
    for (const id of [handbookId, vaultId]) {
      expect((await reader.call(filesApi.get, { params: { id } })).status).toBe(404);
      expect((await reader.call(filesApi.content, { params: { id } })).status).toBe(404);
      expect((await reader.call(filesApi.delete, { params: { id } })).status).toBe(404);
    }
    const files = await reader.call(filesApi.list, {});
    expect(files.status).toBe(200);
    expect(files.data.items).toEqual([]);
    const search = await reader.call(chatsApi.search, { query: { q: "zebrafinch" } });
    expect(search.status).toBe(200);
    for (const code of SECRETS) expect(search.response.body).not.toContain(code);
  });

  it("is refused with what to do once the course is made private, asking no provider and storing nothing", async () => {
    const hidden = await owner.call(coursesApi.update, { params: { id: courseId }, body: { isPublic: false } });
    expect(hidden.status, hidden.response.body).toBe(200);
    try {
      const before = fake.requests.length;
      const count = async () => (await reader.ok(chatsApi.messages, { params: { id: chatId } })).items.length;
      const messages = await count();
      const res = await reader.call(chatsApi.reply, { params: { id: chatId }, body: { content: "And the quokkatron again?" } });
      expect(res.status).toBe(403);
      expect(res.response.json()).toEqual({ message: TUTOR_LESSON_CLOSED });
      expect((await reader.call(chatsApi.regenerate, { params: { id: chatId }, body: {} })).status).toBe(403);
      expect(fake.requests.length).toBe(before);
      expect(await count()).toBe(messages);
      expect((await openTutor(reader, lessonId)).status).toBe(404);
    } finally {
      await owner.call(coursesApi.update, { params: { id: courseId }, body: { isPublic: true } });
    }
  });
});
