import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { chatFoldersApi } from "../../src/shared/contracts/chat-folders.js";
import {
  courseAiApi,
  coursesApi,
  type GenerationRun,
  type Lesson,
  lessonsApi,
  type OutlineProposal,
  SOURCES_ONE_KIND,
  SOURCES_REQUIRED,
} from "../../src/shared/contracts/courses.js";
import type { TokenScope } from "../../src/shared/contracts/endpoint.js";
import { errorBodySchema } from "../../src/shared/contracts/errors.js";
import { collectionsApi, filesApi } from "../../src/shared/contracts/knowledge.js";
import { FAKE_OUTLINE, textOf } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, callApp, requestFor } from "../helpers/api-call.js";
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

const hints = { audience: "new team leads", level: "beginner" as const, goals: "", notes: "" };
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
  const outline = await client.ok(coursesApi.outline, { params: { id: courseId } });
  const ids = outline.modules.flatMap((m) => m.lessons.map((l) => l.id));
  return Promise.all(ids.map((id) => client.ok(lessonsApi.get, { params: { id } })));
}

/** One source of a lesson, as `client` may read it. */
const sourceOf = (client: CookieClient, id: number, n: number) => client.call(lessonsApi.source, { params: { id, n } });

const addMessage = (chatId: number, content: string, role?: "user" | "assistant") =>
  author.call(chatsApi.addMessage, { params: { id: chatId }, body: { content, ...(role ? { role } : {}) } });

type CourseSourcesInput = NonNullable<CallInput<typeof courseAiApi.proposeOutline>["body"]["sources"]>;

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
function requestThatWrote(lesson: Lesson): ProviderBody {
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
  const given = givenSources(requestThatWrote(lesson));
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
    const res = await admin.call(adminUsersApi.update, { params: { id: registered.user.id }, body: { planType: "earlyAccess" } });
    expect(res.status).toBe(200);
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
/** The file course's first lesson (the tests after its making read it). */
function firstFileLesson(): Lesson {
  const lesson = fileLessons[0];
  if (!lesson) throw new Error("the file course has no lesson");
  return lesson;
}

describe("a course from a 3-file collection", () => {
  it("proposes an outline whose every lesson plans passages of those files, with the passages in the provider request", async () => {
    const collection = await author.call(collectionsApi.create, { body: { name: "Team handbooks" } });
    expect(collection.status, collection.response.body).toBe(201);
    collectionId = collection.data.id;
    fileIds = [];
    for (const topic of TOPICS) fileIds.push(await upload(author, `${topic}.md`, handbook(topic), collectionId));

    fileCourse = await courseOf(author, "Leading a small team");
    const before = fake.requests.length;
    const res = await author.call(courseAiApi.proposeOutline, { params: { id: fileCourse }, body: { hints, sources: { collectionId } } });
    expect(res.status, res.response.body).toBe(200);
    const proposal = res.data;
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
    const approved = await author.call(courseAiApi.approveOutline, {
      params: { id: fileCourse },
      body: { outline: tampered, hints, sources: { collectionId } },
    });
    expect(approved.status, approved.response.body).toBe(201);
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
      expect(systemOf(requestThatWrote(lesson))).toContain("never invent a number or a source");
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
      const res = await addMessage(chatId, content, i % 2 === 0 ? "user" : "assistant");
      expect(res.status, res.response.body).toBe(201);
      ids.push(res.data.id);
    }
    const edited = await author.call(chatsApi.editMessage, {
      params: { id: chatId, messageId: Number(ids[26]) },
      body: { content: "Question 26, asked again: the weekly ritual." },
    });
    expect(edited.status, edited.response.body).toBe(200);
    for (let i = 28; i < 30; i++) {
      const res = await addMessage(chatId, said(i), i % 2 === 0 ? "user" : "assistant");
      expect(res.status, res.response.body).toBe(201);
    }
    const messages = (await author.ok(chatsApi.messages, { params: { id: chatId }, query: { limit: 100 } })).items;
    expect(messages).toHaveLength(30);
    shown = new Set(messages.map((m) => m.id));
    offBranch = [ids[26] as number, ids[27] as number];
    for (const id of offBranch) expect(shown.has(id)).toBe(false);

    const course = await courseOf(author, "Coaching from a chat");
    const res = await author.call(courseAiApi.proposeOutline, { params: { id: course }, body: { hints, sources: { chatId } } });
    expect(res.status, res.response.body).toBe(200);
    const proposal = res.data;
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

    const approved = await author.call(courseAiApi.approveOutline, {
      params: { id: course },
      body: { outline: outlineBody(proposal), hints, sources: { chatId } },
    });
    expect(approved.status, approved.response.body).toBe(201);
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
    const opened = await sourceOf(author, lesson.id, 1);
    expect(opened.status, opened.response.body).toBe(200);
    const detail = opened.data;
    expect(detail).toMatchObject({ n: 1, kind: "message", chatId, removed: false, beforePage: null, afterPage: null });
    expect(`${detail.before}${detail.after}`.length).toBeGreaterThan(0);
    expect(givenSources(requestThatWrote(lesson)).get(1)).toBe(detail.passage);

    // Deleting the chat leaves the lessons' text, and their entries say the source was removed.
    expect((await author.call(chatsApi.remove, { params: { id: chatId } })).status).toBe(204);
    const after = await author.ok(lessonsApi.get, { params: { id: lesson.id } });
    expect(after.content).toBe(lesson.content);
    expect(after.sources.length).toBe(lesson.sources.length);
    for (const source of after.sources) {
      expect(source.removed).toBe(true);
      expect(source.messageId).toBeUndefined();
    }
    const removed = (await sourceOf(author, lesson.id, 1)).data;
    expect(removed).toMatchObject({ n: 1, removed: true, excerpt: lesson.sources[0]?.excerpt, before: "", after: "" });
    expect(removed.passage).toBe(detail.passage);
  });

  it("builds from a folder's chats, their branches shown", async () => {
    const folder = await author.ok(chatFoldersApi.create, { body: { name: "Coaching" } });
    const chat = await newChat(author, { title: "Folder talk" });
    expect((await author.call(chatsApi.update, { params: { id: chat.id }, body: { folderId: folder.id } })).status).toBe(200);
    for (const words of LESSON_WORDS) {
      expect((await addMessage(chat.id, `Let us talk about ${words}.`)).status).toBe(201);
    }
    const shownIds = new Set((await author.ok(chatsApi.messages, { params: { id: chat.id } })).items.map((m) => m.id));
    const course = await courseOf(author, "Coaching from a folder");
    const res = await author.call(courseAiApi.proposeOutline, {
      params: { id: course },
      body: { hints, sources: { folderId: folder.id } },
    });
    expect(res.status, res.response.body).toBe(200);
    const planned = res.data.modules.flatMap((m) => m.lessons.flatMap((l) => l.sources));
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
    await addMessage(chat.id, "Something to read");
    const folder = await author.ok(chatFoldersApi.create, { body: { name: "Mine" } });
    const cases: [CourseSourcesInput, string][] = [
      [{ fileIds: fileIds.slice(0, 1) }, "File not found"],
      [{ collectionId }, "Collection not found"],
      [{ chatId: chat.id }, "Chat not found"],
      [{ folderId: folder.id }, "Folder not found"],
      [{ fileIds: [999_999] }, "File not found"],
    ];
    for (const [sources, message] of cases) {
      const params = { id: course };
      for (const [url, res] of [
        ["outline", await other.call(courseAiApi.proposeOutline, { params, body: { hints, sources } })],
        ["approve", await other.call(courseAiApi.approveOutline, { params, body: { hints, sources, outline: FAKE_OUTLINE } })],
      ] as const) {
        expect({ url, sources, status: res.status, message: res.error.message }).toEqual({ url, sources, status: 404, message });
      }
    }
    // Nothing was created for the refused approvals.
    expect((await other.ok(coursesApi.outline, { params: { id: course } })).modules).toEqual([]);
  });

  it("answers 400 with the contract's words for bad sources, and for a scope with nothing to read", async () => {
    const course = await courseOf(author, "Bad sources");
    const propose = (sources: CourseSourcesInput, rawBody?: unknown) =>
      author.call(courseAiApi.proposeOutline, { params: { id: course }, body: { hints, sources } }, rawBody ? { rawBody } : {});
    const required = await propose({});
    expect(required.status).toBe(400);
    expect(JSON.stringify(required.error)).toContain(SOURCES_REQUIRED);
    const two = await propose({ collectionId, chatId: 1 });
    expect(two.status).toBe(400);
    expect(JSON.stringify(two.error)).toContain(SOURCES_ONE_KIND);
    const many = await propose({ fileIds: Array.from({ length: 51 }, (_, i) => i + 1) });
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.error)).toContain("Pick at most 50 files");
    // A file id of the wrong type: the contract's type does not allow it, sent raw.
    const wrongType = await propose({}, { hints, sources: { fileIds: ["one"] } });
    expect(wrongType.status).toBe(400);

    const empty = await author.ok(collectionsApi.create, { body: { name: "Empty shelf" } });
    const nothing = await propose({ collectionId: empty.id });
    expect(nothing.status).toBe(400);
    expect(nothing.error.message).toMatch(/None of these files is ready to read yet/);
    const silent = await newChat(author);
    const quiet = await propose({ chatId: silent.id });
    expect(quiet.status).toBe(400);
    expect(quiet.error.message).toBe("This chat has no messages to build a course from.");
  });

  it("refuses the free plan (403) and the signed out (401)", async () => {
    const course = await courseOf(free, "Free");
    const lesson = firstFileLesson();
    // The same request from the free plan and signed out.
    for (const request of [
      requestFor(courseAiApi.proposeOutline, { params: { id: course }, body: { sources: { collectionId } } }),
      requestFor(courseAiApi.approveOutline, { params: { id: course }, body: { outline: FAKE_OUTLINE, sources: { collectionId } } }),
      requestFor(courseAiApi.regenerateLesson, { params: { id: lesson.id }, body: {} }),
    ]) {
      const { url } = request;
      const res = await free.request(request);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(errorBodySchema.parse(res.json()).message).toMatch(/Early Access/);
      const anonymous = await t.app.inject(request);
      expect({ url, status: anonymous.statusCode }).toEqual({ url, status: 401 });
    }
    const anonymous = await callApp(t.app, lessonsApi.source, { params: { id: lesson.id, n: 1 } });
    expect(anonymous.status).toBe(401);
  });
});

describe("From my material before any course exists (decision 059)", () => {
  const coursesOf = async (client: CookieClient) => (await client.ok(coursesApi.list, { query: { scope: "mine", limit: 100 } })).items;

  it("a refused, failed or abandoned outline leaves no course; the approve makes one private draft with its lessons", async () => {
    const before = (await coursesOf(author)).length;
    const othersBefore = (await coursesOf(other)).length;
    const outline = courseAiApi.proposeMaterialOutline;
    // Refused steps: another's material, no title, the free plan; then a provider failure; then an outline nobody approves.
    expect((await other.call(outline, { body: { title: "Coastal Ecology", hints, sources: { collectionId } } })).status).toBe(404);
    expect((await author.call(outline, { body: { title: "", hints, sources: { collectionId } } })).status).toBe(400);
    expect((await free.call(outline, { body: { title: "Coastal Ecology", sources: { collectionId } } })).status).toBe(403);
    // Signed out, with a body the contract does not allow (no sources): sent as it is.
    const signedOut = await callApp(
      t.app,
      outline,
      { body: { title: "Coastal Ecology", sources: {} } },
      { rawBody: { title: "Coastal Ecology" } },
    );
    expect(signedOut.status).toBe(401);
    const failed = await author.call(outline, { body: { title: "Coastal Ecology #error=502", hints, sources: { collectionId } } });
    expect(failed.status).toBe(502);
    const proposed = await author.call(outline, { body: { title: "Coastal Ecology for Year 10", hints, sources: { collectionId } } });
    expect(proposed.status, proposed.response.body).toBe(200);
    const proposal = proposed.data;
    expect(proposal.modules.flatMap((m) => m.lessons).every((l) => l.sources.length > 0)).toBe(true);
    expect(await coursesOf(author)).toHaveLength(before);

    // The approve refuses before creating anything: another's material, the free plan.
    const approve = courseAiApi.approveMaterialOutline;
    const body = { title: "Coastal Ecology for Year 10", outline: outlineBody(proposal), hints, sources: { collectionId } };
    expect((await other.call(approve, { body })).status).toBe(404);
    expect((await free.call(approve, { body })).status).toBe(403);
    expect((await author.call(approve, { body: { ...body, sources: {} } })).status).toBe(400);
    expect(await coursesOf(other)).toHaveLength(othersBefore);
    expect(await coursesOf(author)).toHaveLength(before);

    const approved = await author.call(approve, { body });
    expect(approved.status, approved.response.body).toBe(201);
    const { courseId } = approved.data;
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
    const lesson = firstFileLesson();
    const owner = await sourceOf(author, lesson.id, 1);
    expect(owner.status, owner.response.body).toBe(200);
    const full = owner.data;
    expect(full).toMatchObject({ ...lesson.sources[0], removed: false });
    expect(full.headingPath).toMatch(/handbook/);
    expect(`${full.before}${full.after}`.length).toBeGreaterThan(0);
    // The whole passage the lesson was written from, the excerpt its start.
    expect(givenSources(requestThatWrote(lesson)).get(1)).toBe(full.passage);
    expect(full.passage.length).toBeGreaterThan(full.excerpt.length - 1);
    expect(full.passage.startsWith(full.excerpt.replace(/…$/, ""))).toBe(true);

    // Private: another user gets 404, as for a lesson they cannot see.
    const hidden = await sourceOf(reader, lesson.id, 1);
    expect(hidden.status).toBe(404);

    const published = await author.call(coursesApi.update, { params: { id: fileCourse }, body: { status: "published", isPublic: true } });
    expect(published.status, published.response.body).toBe(200);
    const read = await sourceOf(reader, lesson.id, 1);
    expect(read.status, read.response.body).toBe(200);
    // The whole body as sent: nothing more than the excerpt.
    expect(read.response.json()).toEqual({
      ...full,
      passage: full.excerpt,
      before: "",
      after: "",
      beforePage: null,
      afterPage: null,
      headingPath: "",
    });
    expect((await sourceOf(reader, lesson.id, lesson.sources.length + 1)).status).toBe(404);
    // A reader may not regenerate it.
    expect((await other.call(courseAiApi.regenerateLesson, { params: { id: lesson.id }, body: {} })).status).toBe(403);
    expect((await author.call(coursesApi.update, { params: { id: fileCourse }, body: { isPublic: false } })).status).toBe(200);
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
    const module = await author.ok(coursesApi.createModule, { params: { id: courseId }, body: { title: "Tides" } });
    const made = await author.call(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Tide tables", type: "reading", content: "Tides [1]." },
    });
    expect(made.status, made.response.body).toBe(201);
    const lessonId = made.data.id;
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
    const source = { params: { id: lessonId, n: 1 } };

    const owner = await author.call(lessonsApi.source, source);
    expect(owner.status, owner.response.body).toBe(200);
    const full = owner.data;
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
    const token = async (scopes: TokenScope[]) => {
      const res = await author.call(tokensApi.create, { body: { name: scopes.join(" "), expiresInDays: 1, scopes } });
      expect(res.status, res.response.body).toBe(201);
      return res.data.token;
    };
    const excerptOnly = { ...full, passage: full.excerpt, before: "", after: "", beforePage: null, afterPage: null, headingPath: "" };
    // The whole body as sent.
    const bearer = async (scopes: TokenScope[]) =>
      (await callApp(t.app, lessonsApi.source, source, { headers: { authorization: `Bearer ${await token(scopes)}` } })).response.json();
    expect(await bearer(["courses:read"])).toEqual(excerptOnly);
    expect(await bearer(["courses:read", "files:read"])).toEqual(full);

    // Another user: 404 while the course is private; the stored excerpt alone once it is public.
    const hidden = await reader.call(lessonsApi.source, source);
    expect(hidden.status).toBe(404);
    expect(hidden.error.message).toBe("Lesson not found");
    expect((await author.call(coursesApi.update, { params: { id: courseId }, body: { status: "published", isPublic: true } })).status).toBe(
      200,
    );
    const read = await reader.call(lessonsApi.source, source);
    expect(read.status, read.response.body).toBe(200);
    expect(read.response.json()).toEqual(excerptOnly);
    expect(read.response.body).not.toContain(full.passage.slice(-40));
  });

  it("regenerate keeps the old text as a version, retrieves again and replaces the sources", async () => {
    const lesson = fileLessons[1] as Lesson;
    const res = await author.call(courseAiApi.regenerateLesson, {
      params: { id: lesson.id },
      body: { hints: { ...hints, notes: "shorter this time" } },
    });
    expect(res.status, res.response.body).toBe(200);
    const again = res.data;
    expect(again.content).not.toBe(lesson.content);
    expect(again.content).toContain("shorter this time");
    const versions = await author.ok(lessonsApi.versions, { params: { id: lesson.id } });
    expect(versions.map((v) => v.content)).toContain(lesson.content);
    expect(again.sources.length).toBeGreaterThan(0);
    for (const source of again.sources) expect(fileIds).toContain(source.fileId);
    expectSourcesGiven(again);
    expect(await author.ok(lessonsApi.get, { params: { id: lesson.id } })).toMatchObject({ sources: again.sources });
  });

  it("deleting a file leaves the lesson's text, and its entries removed", async () => {
    const lesson = await author.ok(lessonsApi.get, { params: { id: firstFileLesson().id } });
    const fileId = lesson.sources[0]?.fileId as number;
    const { passage } = (await sourceOf(author, lesson.id, 1)).data;
    expect((await author.call(filesApi.delete, { params: { id: fileId } })).status).toBe(204);
    const after = await author.ok(lessonsApi.get, { params: { id: lesson.id } });
    expect(after.content).toBe(lesson.content);
    expect(after.sources).toHaveLength(lesson.sources.length);
    for (const [i, source] of after.sources.entries()) {
      const was = lesson.sources[i];
      expect(source.excerpt).toBe(was?.excerpt);
      expect(source.removed).toBe(was?.fileId === fileId);
    }
    const opened = (await sourceOf(author, lesson.id, 1)).data;
    // The owner still reads the whole passage the lesson keeps, with nothing around it.
    expect(opened).toMatchObject({ n: 1, removed: true, excerpt: lesson.sources[0]?.excerpt, passage, before: "", after: "" });
    expect(opened.fileId).toBeUndefined();
  });
});
