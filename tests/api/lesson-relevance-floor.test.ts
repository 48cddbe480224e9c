import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_SOURCE_PROMPT } from "../../src/server/modules/courses/ai/course-material.js";
import { courseAiApi, coursesApi, lessonsApi, WITHOUT_SOURCE_MESSAGES } from "../../src/shared/contracts/courses.js";
import { collectionsApi, filesApi } from "../../src/shared/contracts/knowledge.js";
import { textOf } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt, setEmbeddingModel } from "../helpers/chat-setup.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { adminOwnerLearner } from "../helpers/quiz-kit.js";

/**
 * Issue 42 item 9 (decision 067): a lesson's planned and written sources are only passages that clear the relevance
 * floor. Seeded material: a coastal field guide (related), a table of contents that names every lesson (dropped: a
 * contents page), an ASN.1 manual page (unrelated, sharing a word or two with the lessons) and a note that speaks of
 * the stand-in outline's first lesson. A lesson nothing matches is written without a source: the model is told to cite
 * nothing and the lesson says so. Hybrid retrieval on PGlite (pgvector, the embeddings stand-in), full text elsewhere.
 */
let t: TestApp;
let fake: FakeProvider;
let author: CookieClient;
let reader: CookieClient;

const hints = { audience: "Year 10", level: "beginner" as const, goals: "", notes: "" };
const FILES = {
  "coastal-guide.md": [
    "# Coastal field guide",
    "## Zonation survey with quadrats",
    "On a rocky shore the species change from the low shore to the high shore: this banding is zonation. For a survey, " +
      "lay a tape down the shore as a transect and place quadrats at every metre along it. In each quadrat, record the " +
      "species found and the cover of seaweed and barnacles, then draw the zonation as kite diagrams.",
  ].join("\n\n"),
  "contents.md": [
    "Contents",
    "1 Why it matters . . . . . . . . . . . . . . . . . . . . . . 1",
    "2 Zonation survey with quadrats . . . . . . . . . . . . . . . 3",
    "3 Recording species on the low and high shore . . . . . . . . 7",
    "4 Your first try at a transect . . . . . . . . . . . . . . . 11",
    "5 Common mistakes in a survey . . . . . . . . . . . . . . . . 15",
  ].join("\n"),
  "libtasn1.md": [
    "# asn1Parser",
    "asn1Parser reads a file of ASN.1 definitions and writes a C array of them. A SEQUENCE is a record of typed fields. " +
      "The problem it answers: -c, --check checks the syntax only; -o, --output FILE writes the array to FILE. Mandatory " +
      "arguments to long options are mandatory for short options too.",
  ].join("\n\n"),
  "why-it-matters.md": [
    "# Why it matters",
    "Why it matters: the problem this course solves is that field data taken without a method cannot be compared from " +
      "one visit to the next, so the course solves it with one method every group follows.",
  ].join("\n\n"),
};

async function upload(client: CookieClient, name: string, body: string, collectionId: number): Promise<number> {
  const multipart = multipartFile("file", name, "text/markdown", new TextEncoder().encode(body), { collectionId: String(collectionId) });
  const res = await client.call(filesApi.upload, {}, { multipart });
  expect(res.status, res.response.body).toBe(201);
  const file = await settledFile(client, res.data.id);
  expect(file.status).toBe("ready");
  return file.id;
}

async function settle(client: CookieClient, courseId: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await client.ok(courseAiApi.generation, { params: { id: courseId } });
    if (!run) throw new Error(`course ${courseId} has no run`);
    if (run.status !== "running" || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

type ProviderBody = { messages: { role: string; content: unknown }[] };
const partOf = (body: ProviderBody, role: string) =>
  body.messages
    .filter((m) => m.role === role)
    .map((m) => textOf(m.content))
    .join("\n");
/** The last request to the model that wrote this lesson (its prompt names it). */
function requestFor(title: string): ProviderBody {
  const found = fake.requests
    .map((r) => r.body as ProviderBody)
    .filter((b) => Array.isArray(b.messages) && partOf(b, "user").includes(`lesson "${title}"`));
  const last = found.at(-1);
  if (!last) throw new Error(`no provider request wrote "${title}"`);
  return last;
}

let collectionId: number;
let names: Map<number, string>;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const people = await adminOwnerLearner(t.app);
  ({ owner: author, learner: reader } = people);
  await pointPlatformAt(people.admin, "openai", fake);
  await setEmbeddingModel(people.admin);
  const collection = await author.call(collectionsApi.create, { body: { name: "Coastal ecology" } });
  expect(collection.status, collection.response.body).toBe(201);
  collectionId = collection.data.id;
  names = new Map();
  for (const [name, body] of Object.entries(FILES)) names.set(await upload(author, name, body, collectionId), name);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("a lesson's sources clear the relevance floor (decision 067)", () => {
  it("plans only related passages: never the contents page or the unrelated manual; a lesson nothing matches plans none", async () => {
    const res = await author.call(courseAiApi.proposeMaterialOutline, {
      body: { title: "Coastal Ecology for Year 10", hints, sources: { collectionId } },
    });
    expect(res.status, res.response.body).toBe(200);
    const lessons = res.data.modules.flatMap((m) => m.lessons);
    const planned = new Map(lessons.map((l) => [l.title, l.sources.map((s) => s.fileName)]));
    // The stand-in's outline: "Why it matters" has its note; nothing else of this material speaks of the other three.
    expect(planned.get("Why it matters")).toEqual(["why-it-matters.md"]);
    for (const title of ["Your first try", "Common mistakes", "Check yourself"]) expect(planned.get(title), title).toEqual([]);
    for (const lesson of lessons) {
      expect(lesson.sources.map((s) => s.fileName)).not.toContain("contents.md");
      expect(lesson.sources.map((s) => s.fileName)).not.toContain("libtasn1.md");
    }
  });

  it("writes a related lesson from its passage only, and one with none without a source, telling the model to cite nothing", async () => {
    const outline = {
      modules: [
        {
          title: "On the shore",
          description: "Field work",
          lessons: [
            {
              title: "Zonation survey with quadrats",
              type: "reading" as const,
              summary: "Lay quadrats along a transect and record the species from the low to the high shore",
            },
            { title: "Booking the minibus", type: "reading" as const, summary: "Hiring transport and paying the driver" },
          ],
        },
      ],
    };
    const approved = await author.call(courseAiApi.approveMaterialOutline, {
      body: { title: "Coastal Ecology", outline, hints, sources: { collectionId } },
    });
    expect(approved.status, approved.response.body).toBe(201);
    const { courseId } = approved.data;
    expect(await settle(author, courseId)).toMatchObject({ status: "done" });
    const tree = await author.ok(coursesApi.outline, { params: { id: courseId } });
    const [zonation, minibus] = await Promise.all(
      tree.modules.flatMap((m) => m.lessons).map((l) => author.ok(lessonsApi.get, { params: { id: l.id } })),
    );
    if (!zonation || !minibus) throw new Error("two lessons expected");

    expect(zonation.sources.map((s) => s.fileName)).toEqual(["coastal-guide.md"]);
    expect(zonation.withoutSource).toBe(false);
    const given = partOf(requestFor(zonation.title), "system");
    expect(given).toContain("[1] coastal-guide.md");
    expect(given).not.toContain("asn1Parser");
    expect(given).not.toContain(". . . .");
    expect(given).not.toContain(NO_SOURCE_PROMPT);

    expect(minibus.sources).toEqual([]);
    expect(minibus.withoutSource).toBe(true);
    expect(minibus.content.length).toBeGreaterThan(0);
    const told = partOf(requestFor(minibus.title), "system");
    expect(told).toContain(NO_SOURCE_PROMPT);
    expect(told).not.toMatch(/\[1\]/);
    expect(names.size).toBe(4);

    // Regenerating keeps the state: still nothing matches, still without a source; a lesson not from material never is.
    const regenerate = (id: number) => author.call(courseAiApi.regenerateLesson, { params: { id }, body: { hints } });
    const again = await regenerate(minibus.id);
    expect(again.status, again.response.body).toBe(200);
    expect(again.data).toMatchObject({ sources: [], withoutSource: true });
    const regenerated = (await regenerate(zonation.id)).data;
    expect(regenerated).toMatchObject({ withoutSource: false });
    expect(regenerated.sources.map((s) => s.fileName)).toEqual(["coastal-guide.md"]);

    // A reader of the published course gets the same answer (the page words it for them: WITHOUT_SOURCE_MESSAGES.reader).
    expect((await author.call(coursesApi.update, { params: { id: courseId }, body: { status: "published", isPublic: true } })).status).toBe(
      200,
    );
    const read = await reader.call(lessonsApi.get, { params: { id: minibus.id } });
    expect(read.status, read.response.body).toBe(200);
    expect(read.data).toMatchObject({ sources: [], withoutSource: true });
    expect(WITHOUT_SOURCE_MESSAGES.reader).toMatch(/written without a source/);

    const plain = await author.ok(coursesApi.create, { body: { title: "By hand" } });
    const module = await author.ok(coursesApi.createModule, { params: { id: plain.id }, body: { title: "One" } });
    const lesson = await author.ok(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Written by hand", type: "reading", content: "Text." },
    });
    expect(lesson).toMatchObject({ sources: [], withoutSource: false });
  });
});
