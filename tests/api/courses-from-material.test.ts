import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import {
  courseAiApi,
  coursesApi,
  type GenerationRun,
  type Lesson,
  type LessonSourceDetail,
  type OutlineProposal,
  SOURCES_ONE_KIND,
  SOURCES_REQUIRED,
} from "../../src/shared/contracts/courses.js";
import { filesApi } from "../../src/shared/contracts/knowledge.js";
import { FAKE_OUTLINE, textOf } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat, pointPlatformAt, setEmbeddingModel } from "../helpers/chat-setup.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";

/**
 * Issue 31, the server side (decision 039): courses made from the author's own material (a collection of files, a
 * chat's branch shown, a folder's chats), every lesson written from passages retrieved for it and citing exactly
 * those; the source route, regenerate, and sources outliving their files and chats. Through the API only: the
 * ingestion worker and the course runs are waited for through their GETs.
 */
let t: TestApp;
let fake: FakeProvider;
let author: CookieClient;
let other: CookieClient;
let reader: CookieClient;
let free: CookieClient;

const hints = { audience: "new team leads", level: "beginner", goals: "", notes: "" };
const LESSON_WORDS = [
  "why it matters: the problem this course solves",
  "your first try: a small hands-on start",
  "common mistakes: what trips people up",
  "check yourself: five questions",
];
const TOPICS = ["alpaca", "bramble", "cobalt"];

/** A Markdown handbook whose sections each speak of one lesson's words, among words of its own topic. */
function handbook(topic: string): string {
  const sections = LESSON_WORDS.flatMap((words, i) => {
    const filler = Array.from({ length: 45 }, (_, w) => `${topic}${(w + i) % 9} note`).join(" ");
    return [`## ${topic} part ${i + 1}`, `${words}. ${filler}. Again ${words}, the ${topic} way.`];
  });
  return [`# The ${topic} handbook`, ...sections].join("\n\n");
}

async function settle(client: CookieClient, courseId: number): Promise<GenerationRun> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await client.ok(courseAiApi.generation, { params: { id: courseId } });
    if (!run) throw new Error(`course ${courseId} has no run`);
    if (run.status !== "running" || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function upload(client: CookieClient, name: string, body: string, collectionId?: number): Promise<number> {
  const fields: Record<string, string> = collectionId ? { collectionId: String(collectionId) } : {};
  const multipart = multipartFile("file", name, "text/markdown", new TextEncoder().encode(body), fields);
  const uploaded = await client.ok(filesApi.upload, {}, { multipart });
  const file = await settledFile(client, uploaded.id);
  expect(file.status).toBe("ready");
  return file.id;
}

async function courseOf(client: CookieClient, title: string): Promise<number> {
  return (await client.ok(coursesApi.create, { body: { title } })).id;
}

/** Every lesson of a course, with its sources (GET /api/courses/{id}/outline, then each lesson). */
async function lessonsOf(client: CookieClient, courseId: number): Promise<Lesson[]> {
  const outline = (await client.get(`/api/courses/${courseId}/outline`)).json() as { modules: { lessons: { id: number }[] }[] };
  const ids = outline.modules.flatMap((m) => m.lessons.map((l) => l.id));
  return Promise.all(ids.map(async (id) => (await client.get(`/api/lessons/${id}`)).json() as Lesson));
}

type ProviderBody = { messages: { role: string; content: unknown }[] };
const systemOf = (body: ProviderBody) =>
  body.messages
    .filter((m) => m.role === "system")
    .map((m) => textOf(m.content))
    .join("\n");
const userOf = (body: ProviderBody) =>
  body.messages
    .filter((m) => m.role === "user")
    .map((m) => textOf(m.content))
    .join("\n");

/** The requests to the model (not the embeddings) since the `from`-th request. */
const chatRequests = (from: number) =>
  fake.requests
    .slice(from)
    .filter((r) => !r.path.endsWith("/embeddings"))
    .map((r) => r.body as ProviderBody);

/** The request that wrote this lesson (its prompt names it), the last one when it was written again. */
function requestFor(lesson: Lesson): ProviderBody {
  const found = fake.requests
    .map((r) => r.body as ProviderBody)
    .filter((b) => Array.isArray(b.messages) && userOf(b).includes(`lesson "${lesson.title}"`));
  const last = found.at(-1);
  if (!last) throw new Error(`no provider request wrote "${lesson.title}"`);
  return last;
}

/** The numbered sources a request gave: n → the text that followed `[n] label`. */
function givenSources(body: ProviderBody): Map<number, string> {
  const given = new Map<number, string>();
  const entries = systemOf(body).split(/\n\n(?=\[\d+\] )/);
  for (const entry of entries) {
    const match = entry.match(/^\[(\d+)\] [^\n]*\n([\s\S]*)$/);
    if (match) given.set(Number(match[1]), match[2] ?? "");
  }
  return given;
}

/** Each lesson's sources are exactly what the provider request that wrote it was given, numbered the same. */
function expectSourcesGiven(lesson: Lesson) {
  const given = givenSources(requestFor(lesson));
  expect(lesson.sources.length).toBeGreaterThan(0);
  expect([...given.keys()].sort()).toEqual(lesson.sources.map((s) => s.n).sort());
  for (const source of lesson.sources) {
    expect(given.get(source.n)?.startsWith(source.excerpt.replace(/…$/, ""))).toBe(true);
  }
}

const outlineBody = (proposal: OutlineProposal) => ({ modules: proposal.modules });

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  // Hybrid retrieval where pgvector is (PGlite here); full text only on a PostgreSQL without it.
  await setEmbeddingModel(admin);
  const early = async () => {
    const registered = await registerAndSignIn(t.app);
    const res = await admin.patch(`/api/admin/users/${registered.user.id}`, { planType: "earlyAccess" });
    expect(res.statusCode).toBe(200);
    return registered;
  };
  const a = await early();
  author = a.client;
  other = (await early()).client;
  reader = (await registerAndSignIn(t.app)).client;
  free = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

let collectionId: number;
let fileIds: number[];
let fileCourse: number;
let fileLessons: Lesson[];

describe("a course from a 3-file collection", () => {
  it("proposes an outline whose every lesson plans passages of those files, with the passages in the provider request", async () => {
    const collection = await author.post("/api/collections", { name: "Team handbooks" });
    expect(collection.statusCode, collection.body).toBe(201);
    collectionId = (collection.json() as { id: number }).id;
    fileIds = [];
    for (const topic of TOPICS) fileIds.push(await upload(author, `${topic}.md`, handbook(topic), collectionId));

    fileCourse = await courseOf(author, "Leading a small team");
    const before = fake.requests.length;
    const res = await author.post(`/api/courses/${fileCourse}/generate/outline`, { hints, sources: { collectionId } });
    expect(res.statusCode, res.body).toBe(200);
    const proposal = res.json() as OutlineProposal;
    const lessons = proposal.modules.flatMap((m) => m.lessons);
    expect(lessons).toHaveLength(4);
    for (const lesson of lessons) {
      expect(lesson.sources.length, lesson.title).toBeGreaterThan(0);
      for (const source of lesson.sources) {
        expect(source.kind).toBe("file");
        expect(fileIds).toContain(source.fileId);
      }
    }
    // The outline's one request to the model carries passages of all three files.
    const asked = chatRequests(before);
    expect(asked).toHaveLength(1);
    const prompt = userOf(asked[0] as ProviderBody);
    for (const topic of TOPICS) {
      expect(prompt).toContain(`${topic}.md`);
      expect(prompt).toMatch(new RegExp(`${topic}\\d note`));
    }

    // The approve ignores planned sources sent back (here: a file that is not in the scope at all).
    const tampered = outlineBody(proposal);
    const bogus = { kind: "file" as const, fileId: 999_999, fileName: "secret.pdf", excerpt: "made up" };
    tampered.modules[0]?.lessons[0]?.sources.push(bogus);
    const approved = await author.post(`/api/courses/${fileCourse}/generate/approve`, {
      outline: tampered,
      hints,
      sources: { collectionId },
    });
    expect(approved.statusCode, approved.body).toBe(201);
    const approvedAt = fake.requests.length;
    expect(await settle(author, fileCourse)).toMatchObject({ status: "done", done: 4, total: 4, error: null });
    // With vectors, the run embeds its four lessons' queries in one call, not one call per lesson.
    const embedded = fake.requests.slice(approvedAt).filter((r) => r.path.endsWith("/embeddings"));
    if (t.app.ctx.vectors.available) {
      expect(embedded).toHaveLength(1);
      const input = (embedded[0]?.body as { input?: string[] } | undefined)?.input ?? [];
      expect([...input].sort()).toEqual(FAKE_OUTLINE.modules.flatMap((m) => m.lessons.map((l) => `${l.title} ${l.summary}`)).sort());
    } else {
      expect(embedded).toHaveLength(0);
    }
  });

  it("wrote every lesson from passages of those files retrieved for it, and cites exactly those", async () => {
    fileLessons = await lessonsOf(author, fileCourse);
    expect(fileLessons).toHaveLength(4);
    const allowed = new Set(fileIds);
    for (const lesson of fileLessons) {
      expect(lesson.content.length).toBeGreaterThan(0);
      expect(lesson.sources.length, lesson.title).toBeGreaterThan(0);
      for (const source of lesson.sources) {
        expect(source).toMatchObject({ kind: "file", removed: false });
        expect(allowed.has(source.fileId as number)).toBe(true);
        expect(source.fileName).toMatch(/^(alpaca|bramble|cobalt)\.md$/);
      }
      expect(lesson.sources.map((s) => s.n)).toEqual(lesson.sources.map((_, i) => i + 1));
      // The request that wrote it was given these passages, numbered as the lesson lists them, and no others.
      expectSourcesGiven(lesson);
      expect(systemOf(requestFor(lesson))).toContain("never invent a number or a source");
    }
    // Retrieved for each lesson: the passages of "Why it matters" speak of its words.
    const first = fileLessons.find((l) => l.title === "Why it matters");
    expect(first?.sources.some((s) => s.excerpt.includes("matters"))).toBe(true);
  });
});

describe("a course from a 30-message chat", () => {
  let chatId: number;
  let shown: Set<number>;
  let offBranch: number[];

  it("cites only messages of the branch shown", async () => {
    chatId = (await newChat(author, { title: "Coaching talk" })).id;
    const said = (i: number) =>
      i % 2 === 0
        ? `Question ${i}: ${LESSON_WORDS[(i / 2) % 4]}? Tell me about the team's weekly ritual number ${i}.`
        : `Answer ${i}: about ${LESSON_WORDS[((i - 1) / 2) % 4]}, start with ritual number ${i} and keep notes.`;
    // Messages 26 and 27 hold every lesson's words many times, so a ranking that read them would pick them first; then
    // message 26 (a user's) is edited, so it and its answer leave the branch shown.
    const everything = LESSON_WORDS.join(" ").repeat(3);
    const ids: number[] = [];
    for (let i = 0; i < 28; i++) {
      const content = i >= 26 ? everything : said(i);
      const res = await author.post(`/api/chats/${chatId}/messages`, { content, role: i % 2 === 0 ? "user" : "assistant" });
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { id: number }).id);
    }
    const edited = await author.post(`/api/chats/${chatId}/messages/${ids[26]}/edit`, {
      content: "Question 26, asked again: the weekly ritual.",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    for (let i = 28; i < 30; i++) {
      const res = await author.post(`/api/chats/${chatId}/messages`, { content: said(i), role: i % 2 === 0 ? "user" : "assistant" });
      expect(res.statusCode, res.body).toBe(201);
    }
    const messages = (await author.get(`/api/chats/${chatId}/messages?limit=100`)).json() as { id: number }[];
    expect(messages).toHaveLength(30);
    shown = new Set(messages.map((m) => m.id));
    offBranch = [ids[26] as number, ids[27] as number];
    for (const id of offBranch) expect(shown.has(id)).toBe(false);

    const course = await courseOf(author, "Coaching from a chat");
    const res = await author.post(`/api/courses/${course}/generate/outline`, { hints, sources: { chatId } });
    expect(res.statusCode, res.body).toBe(200);
    const proposal = res.json() as OutlineProposal;
    // The outline's request carries the conversation shown, not the branch left.
    const prompt = userOf(chatRequests(0).at(-1) as ProviderBody);
    expect(prompt).toContain("ritual number 29");
    expect(prompt).not.toContain(everything);
    for (const lesson of proposal.modules.flatMap((m) => m.lessons)) {
      expect(lesson.sources.length, lesson.title).toBeGreaterThan(0);
      for (const source of lesson.sources) {
        expect(source).toMatchObject({ kind: "message", chatId });
        expect(shown.has(source.messageId as number)).toBe(true);
      }
    }

    const approved = await author.post(`/api/courses/${course}/generate/approve`, {
      outline: outlineBody(proposal),
      hints,
      sources: { chatId },
    });
    expect(approved.statusCode, approved.body).toBe(201);
    expect(await settle(author, course)).toMatchObject({ status: "done", done: 4 });
    const lessons = await lessonsOf(author, course);
    for (const lesson of lessons) {
      expect(lesson.sources.length, lesson.title).toBeGreaterThan(0);
      for (const source of lesson.sources) {
        expect(source).toMatchObject({ kind: "message", chatId, removed: false });
        expect(shown.has(source.messageId as number)).toBe(true);
        expect(offBranch).not.toContain(source.messageId);
      }
      expectSourcesGiven(lesson);
    }

    // The owner opens a message source with the messages around it.
    const lesson = lessons[0] as Lesson;
    const opened = await author.get(`/api/lessons/${lesson.id}/sources/1`);
    expect(opened.statusCode, opened.body).toBe(200);
    const detail = opened.json() as LessonSourceDetail;
    expect(detail).toMatchObject({ n: 1, kind: "message", chatId, removed: false, beforePage: null, afterPage: null });
    expect(`${detail.before}${detail.after}`.length).toBeGreaterThan(0);
    expect(givenSources(requestFor(lesson)).get(1)).toBe(detail.passage);

    // Deleting the chat leaves the lessons' text, and their entries say the source was removed.
    expect((await author.request({ method: "DELETE", url: `/api/chats/${chatId}` })).statusCode).toBe(204);
    const after = (await author.get(`/api/lessons/${lesson.id}`)).json() as Lesson;
    expect(after.content).toBe(lesson.content);
    expect(after.sources.length).toBe(lesson.sources.length);
    for (const source of after.sources) {
      expect(source.removed).toBe(true);
      expect(source.messageId).toBeUndefined();
    }
    const removed = (await author.get(`/api/lessons/${lesson.id}/sources/1`)).json() as LessonSourceDetail;
    expect(removed).toMatchObject({ n: 1, removed: true, excerpt: lesson.sources[0]?.excerpt, before: "", after: "" });
    expect(removed.passage).toBe(detail.passage);
  });

  it("builds from a folder's chats, their branches shown", async () => {
    const folder = (await author.post("/api/chat-folders", { name: "Coaching" })).json() as { id: number };
    const chat = await newChat(author, { title: "Folder talk" });
    expect((await author.patch(`/api/chats/${chat.id}`, { folderId: folder.id })).statusCode).toBe(200);
    for (const words of LESSON_WORDS) {
      expect((await author.post(`/api/chats/${chat.id}/messages`, { content: `Let us talk about ${words}.` })).statusCode).toBe(201);
    }
    const shownIds = new Set(((await author.get(`/api/chats/${chat.id}/messages`)).json() as { id: number }[]).map((m) => m.id));
    const course = await courseOf(author, "Coaching from a folder");
    const res = await author.post(`/api/courses/${course}/generate/outline`, { hints, sources: { folderId: folder.id } });
    expect(res.statusCode, res.body).toBe(200);
    const planned = (res.json() as OutlineProposal).modules.flatMap((m) => m.lessons.flatMap((l) => l.sources));
    expect(planned.length).toBeGreaterThan(0);
    for (const source of planned) {
      expect(source).toMatchObject({ kind: "message", chatId: chat.id });
      expect(shownIds.has(source.messageId as number)).toBe(true);
    }
  });
});

describe("refusals", () => {
  it("answers 404 with the knowledge and chat words for another user's files, collection, chat and folder", async () => {
    const course = await courseOf(other, "Not yours");
    const chat = await newChat(author);
    await author.post(`/api/chats/${chat.id}/messages`, { content: "Something to read" });
    const folder = (await author.post("/api/chat-folders", { name: "Mine" })).json() as { id: number };
    for (const [sources, message] of [
      [{ fileIds: [fileIds[0]] }, "File not found"],
      [{ collectionId }, "Collection not found"],
      [{ chatId: chat.id }, "Chat not found"],
      [{ folderId: folder.id }, "Folder not found"],
      [{ fileIds: [999_999] }, "File not found"],
    ] as const) {
      for (const url of [`/api/courses/${course}/generate/outline`, `/api/courses/${course}/generate/approve`]) {
        const res = await other.post(url, { hints, sources, outline: FAKE_OUTLINE });
        expect({ url, sources, status: res.statusCode, message: res.json().message }).toEqual({ url, sources, status: 404, message });
      }
    }
    // Nothing was created for the refused approvals.
    expect(((await other.get(`/api/courses/${course}/outline`)).json() as { modules: unknown[] }).modules).toEqual([]);
  });

  it("answers 400 with the contract's words for bad sources, and for a scope with nothing to read", async () => {
    const course = await courseOf(author, "Bad sources");
    const url = `/api/courses/${course}/generate/outline`;
    const required = await author.post(url, { hints, sources: {} });
    expect(required.statusCode).toBe(400);
    expect(JSON.stringify(required.json())).toContain(SOURCES_REQUIRED);
    const two = await author.post(url, { hints, sources: { collectionId, chatId: 1 } });
    expect(two.statusCode).toBe(400);
    expect(JSON.stringify(two.json())).toContain(SOURCES_ONE_KIND);
    const many = await author.post(url, { hints, sources: { fileIds: Array.from({ length: 51 }, (_, i) => i + 1) } });
    expect(many.statusCode).toBe(400);
    expect(JSON.stringify(many.json())).toContain("Pick at most 50 files");
    const wrongType = await author.post(url, { hints, sources: { fileIds: ["one"] } });
    expect(wrongType.statusCode).toBe(400);

    const empty = (await author.post("/api/collections", { name: "Empty shelf" })).json() as { id: number };
    const nothing = await author.post(url, { hints, sources: { collectionId: empty.id } });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toMatch(/None of these files is ready to read yet/);
    const silent = await newChat(author);
    const quiet = await author.post(url, { hints, sources: { chatId: silent.id } });
    expect(quiet.statusCode).toBe(400);
    expect(quiet.json().message).toBe("This chat has no messages to build a course from.");
  });

  it("refuses the free plan (403) and the signed out (401)", async () => {
    const course = await courseOf(free, "Free");
    const lesson = fileLessons[0] as Lesson;
    for (const [url, body] of [
      [`/api/courses/${course}/generate/outline`, { sources: { collectionId } }],
      [`/api/courses/${course}/generate/approve`, { outline: FAKE_OUTLINE, sources: { collectionId } }],
      [`/api/lessons/${lesson.id}/regenerate`, {}],
    ] as const) {
      const res = await free.post(url, body);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json().message).toMatch(/Early Access/);
      const anonymous = await t.app.inject({ method: "POST", url, payload: body });
      expect({ url, status: anonymous.statusCode }).toEqual({ url, status: 401 });
    }
    const anonymous = await t.app.inject({ method: "GET", url: `/api/lessons/${lesson.id}/sources/1` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("From my material before any course exists (decision 059)", () => {
  type Course = { id: number; title: string; status: string; isPublic: boolean };
  const coursesOf = async (client: CookieClient) => (await client.get("/api/courses?scope=mine&limit=100")).json() as Course[];

  it("a refused, failed or abandoned outline leaves no course; the approve makes one private draft with its lessons", async () => {
    const before = (await coursesOf(author)).length;
    const othersBefore = (await coursesOf(other)).length;
    const outlineUrl = "/api/courses/generate/outline";
    // Refused steps: another's material, no title, the free plan; then a provider failure; then an outline nobody approves.
    expect((await other.post(outlineUrl, { title: "Coastal Ecology", hints, sources: { collectionId } })).statusCode).toBe(404);
    expect((await author.post(outlineUrl, { title: "", hints, sources: { collectionId } })).statusCode).toBe(400);
    expect((await free.post(outlineUrl, { title: "Coastal Ecology", sources: { collectionId } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "POST", url: outlineUrl, payload: { title: "Coastal Ecology" } })).statusCode).toBe(401);
    const failed = await author.post(outlineUrl, { title: "Coastal Ecology #error=502", hints, sources: { collectionId } });
    expect(failed.statusCode).toBe(502);
    const proposed = await author.post(outlineUrl, { title: "Coastal Ecology for Year 10", hints, sources: { collectionId } });
    expect(proposed.statusCode, proposed.body).toBe(200);
    const proposal = proposed.json() as OutlineProposal;
    expect(proposal.modules.flatMap((m) => m.lessons).every((l) => l.sources.length > 0)).toBe(true);
    expect(await coursesOf(author)).toHaveLength(before);

    // The approve refuses before creating anything: another's material, the free plan.
    const approveUrl = "/api/courses/generate/approve";
    const body = { title: "Coastal Ecology for Year 10", outline: outlineBody(proposal), hints, sources: { collectionId } };
    expect((await other.post(approveUrl, body)).statusCode).toBe(404);
    expect((await free.post(approveUrl, body)).statusCode).toBe(403);
    expect((await author.post(approveUrl, { ...body, sources: {} })).statusCode).toBe(400);
    expect(await coursesOf(other)).toHaveLength(othersBefore);
    expect(await coursesOf(author)).toHaveLength(before);

    const approved = await author.post(approveUrl, body);
    expect(approved.statusCode, approved.body).toBe(201);
    const { courseId } = approved.json() as { courseId: number };
    const mine = await coursesOf(author);
    expect(mine).toHaveLength(before + 1);
    expect(mine.find((c) => c.id === courseId)).toMatchObject({ title: "Coastal Ecology for Year 10", status: "draft", isPublic: false });
    expect(await settle(author, courseId)).toMatchObject({ status: "done", done: 4, total: 4, error: null });
    const written = await lessonsOf(author, courseId);
    expect(written.every((l) => l.content.length > 0 && l.sources.length > 0)).toBe(true);
  });
});

describe("a lesson's sources", () => {
  it("open with the text around them for the owner, the excerpt only for a reader of a public course, 404 otherwise", async () => {
    const lesson = fileLessons[0] as Lesson;
    const owner = await author.get(`/api/lessons/${lesson.id}/sources/1`);
    expect(owner.statusCode, owner.body).toBe(200);
    const full = owner.json() as LessonSourceDetail;
    expect(full).toMatchObject({ ...lesson.sources[0], removed: false });
    expect(full.headingPath).toMatch(/handbook/);
    expect(`${full.before}${full.after}`.length).toBeGreaterThan(0);
    // The whole passage the lesson was written from, the excerpt its start.
    expect(givenSources(requestFor(lesson)).get(1)).toBe(full.passage);
    expect(full.passage.length).toBeGreaterThan(full.excerpt.length - 1);
    expect(full.passage.startsWith(full.excerpt.replace(/…$/, ""))).toBe(true);

    // Private: another user gets 404, as for a lesson they cannot see.
    const hidden = await reader.get(`/api/lessons/${lesson.id}/sources/1`);
    expect(hidden.statusCode).toBe(404);

    const published = await author.patch(`/api/courses/${fileCourse}`, { status: "published", isPublic: true });
    expect(published.statusCode, published.body).toBe(200);
    const read = await reader.get(`/api/lessons/${lesson.id}/sources/1`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      ...full,
      passage: full.excerpt,
      before: "",
      after: "",
      beforePage: null,
      afterPage: null,
      headingPath: "",
    });
    expect((await reader.get(`/api/lessons/${lesson.id}/sources/${lesson.sources.length + 1}`)).statusCode).toBe(404);
    // A reader may not regenerate it.
    expect((await other.post(`/api/lessons/${lesson.id}/regenerate`, {})).statusCode).toBe(403);
    expect((await author.patch(`/api/courses/${fileCourse}`, { isPublic: false })).statusCode).toBe(200);
  });

  it("opens a long section's piece whole, between neighbours that repeat none of it and are cut between words (decision 058)", async () => {
    // One section of numbered sentences, long enough for several pieces: each piece starts with the last sentences of
    // the one before (the chunker's overlap). The lesson cites the second piece.
    const sentence = (i: number) => `Sentence ${String(i).padStart(3, "0")} tells of the harbour tides.`;
    const text = `# Harbour handbook\n\n## Tides\n\n${Array.from({ length: 160 }, (_, i) => sentence(i + 1)).join(" ")}`;
    const fileId = await upload(author, "harbour.md", text);
    const pieces = (
      await t.app.ctx.db.execute(sql`select id, content from knowledge_chunks where file_id = ${fileId} order by chunk_index`)
    ).rows as { id: number; content: string }[];
    expect(pieces.length).toBeGreaterThan(2);
    const cited = pieces[1] as { id: number; content: string };
    const courseId = await courseOf(author, "Reading the harbour");
    const module = (await author.post(`/api/courses/${courseId}/modules`, { title: "Tides" })).json() as { id: number };
    const made = await author.post(`/api/modules/${module.id}/lessons`, { title: "Tide tables", type: "reading", content: "Tides [1]." });
    expect(made.statusCode, made.body).toBe(201);
    const lessonId = (made.json() as { id: number }).id;
    await t.app.ctx.db.insert(lessonSources).values({
      lessonId,
      courseId,
      n: 1,
      kind: "file",
      fileId,
      chunkId: Number(cited.id),
      fileName: "harbour.md",
      passage: cited.content,
    });
    const url = `/api/lessons/${lessonId}/sources/1`;

    const owner = await author.get(url);
    expect(owner.statusCode, owner.body).toBe(200);
    const full = owner.json() as LessonSourceDetail;
    // The whole piece, past its 300-character excerpt.
    expect(full.passage).toBe(cited.content);
    expect(full.excerpt.endsWith("…")).toBe(true);
    expect(full.passage.length).toBeGreaterThan(full.excerpt.length);
    expect(full).toMatchObject({ headingPath: "Harbour handbook › Tides", beforePage: null, afterPage: null });
    // Read on across the three, the sentences run in order with none twice and none left out.
    const numbers = [...`${full.before} ${full.passage} ${full.after}`.matchAll(/Sentence (\d{3})/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] as number) + i));
    expect(full.before).not.toContain(full.passage.slice(0, 40));
    expect(full.after).not.toContain(full.passage.slice(-40));
    // Each neighbour is cut 600 characters away from the passage, between two words.
    expect(full.before).toMatch(/^…\S/);
    expect(full.after).toMatch(/\S…$/);
    const words = new Set(text.split(/\s+/));
    for (const word of `${full.before.slice(1)} ${full.after.slice(0, -1)}`.split(/\s+/)) expect(words.has(word), word).toBe(true);

    // A token without files:read reads the owner's file as a reader does; with it, as the owner.
    const token = async (scopes: string[]) => {
      const res = await author.post("/api/tokens", { name: scopes.join(" "), expiresInDays: 1, scopes });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { token: string }).token;
    };
    const excerptOnly = { ...full, passage: full.excerpt, before: "", after: "", beforePage: null, afterPage: null, headingPath: "" };
    const bearer = async (scopes: string[]) =>
      (await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${await token(scopes)}` } })).json();
    expect(await bearer(["courses:read"])).toEqual(excerptOnly);
    expect(await bearer(["courses:read", "files:read"])).toEqual(full);

    // Another user: 404 while the course is private; the stored excerpt alone once it is public.
    const hidden = await reader.get(url);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe("Lesson not found");
    expect((await author.patch(`/api/courses/${courseId}`, { status: "published", isPublic: true })).statusCode).toBe(200);
    const read = await reader.get(url);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(excerptOnly);
    expect(JSON.stringify(read.json())).not.toContain(full.passage.slice(-40));
  });

  it("regenerate keeps the old text as a version, retrieves again and replaces the sources", async () => {
    const lesson = fileLessons[1] as Lesson;
    const res = await author.post(`/api/lessons/${lesson.id}/regenerate`, { hints: { ...hints, notes: "shorter this time" } });
    expect(res.statusCode, res.body).toBe(200);
    const again = res.json() as Lesson;
    expect(again.content).not.toBe(lesson.content);
    expect(again.content).toContain("shorter this time");
    const versions = (await author.get(`/api/lessons/${lesson.id}/versions`)).json() as { content: string }[];
    expect(versions.map((v) => v.content)).toContain(lesson.content);
    expect(again.sources.length).toBeGreaterThan(0);
    for (const source of again.sources) expect(fileIds).toContain(source.fileId);
    expectSourcesGiven(again);
    expect((await author.get(`/api/lessons/${lesson.id}`)).json()).toMatchObject({ sources: again.sources });
  });

  it("deleting a file leaves the lesson's text, and its entries removed", async () => {
    const lesson = (await author.get(`/api/lessons/${(fileLessons[0] as Lesson).id}`)).json() as Lesson;
    const fileId = lesson.sources[0]?.fileId as number;
    const { passage } = (await author.get(`/api/lessons/${lesson.id}/sources/1`)).json() as LessonSourceDetail;
    expect((await author.request({ method: "DELETE", url: `/api/files/${fileId}` })).statusCode).toBe(204);
    const after = (await author.get(`/api/lessons/${lesson.id}`)).json() as Lesson;
    expect(after.content).toBe(lesson.content);
    expect(after.sources).toHaveLength(lesson.sources.length);
    for (const [i, source] of after.sources.entries()) {
      const was = lesson.sources[i];
      expect(source.excerpt).toBe(was?.excerpt);
      expect(source.removed).toBe(was?.fileId === fileId);
    }
    const opened = (await author.get(`/api/lessons/${lesson.id}/sources/1`)).json() as LessonSourceDetail;
    // The owner still reads the whole passage the lesson keeps, with nothing around it.
    expect(opened).toMatchObject({ n: 1, removed: true, excerpt: lesson.sources[0]?.excerpt, passage, before: "", after: "" });
    expect(opened.fileId).toBeUndefined();
  });
});
