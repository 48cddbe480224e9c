// Issue 30's retrieval (decision 036): hybrid full text + vectors fused by reciprocal rank, within a token budget,
// always scoped in SQL to the caller's own files and collections. Two users share words: neither ever gets the other's
// passages, whatever ids they pass. On PGlite the vector half runs (pgvector); on PostgreSQL 15 here, full text only.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeCollections } from "../../src/server/db/schema/index.js";
import { IngestionWorker } from "../../src/server/modules/knowledge/ingestion/ingestion-worker.js";
import { type RetrievalDeps, readWholeFile, retrievePassages } from "../../src/server/modules/knowledge/retrieval/retrieve.js";
import { embeddingSettingsApi } from "../../src/shared/contracts/embedding-settings.js";
import { fakeEmbedding } from "../fakes/fake-embeddings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { insertFile } from "../helpers/knowledge-files.js";
import { usingPostgres } from "../helpers/test-database.js";

let t: TestApp;
let fake: FakeProvider;
let deps: RetrievalDeps;
let alice: number;
let bob: number;
const files: Record<string, number> = {};
let aliceBiology: number;
let bobBiology: number;

const DOCS = {
  photosynthesis:
    "# Photosynthesis\n\nPlants capture sunlight in their chloroplasts. Chlorophyll absorbs light and the plant turns carbon dioxide and water into glucose, releasing oxygen.",
  mitochondria:
    "# Mitochondria\n\nThe mitochondria is the powerhouse of the cell. It makes ATP through cellular respiration, burning glucose with oxygen.",
  volcano: "# Volcanoes\n\nA volcano erupts when magma rises through the crust. Lava, ash and gas pour out of the vent during an eruption.",
  tides: "# Tides\n\nThe moon's gravity pulls the oceans, which makes the tides rise and fall twice a day along the coast.",
};

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const admin = await registerAndSignIn(t.app);
  await pointPlatformAt(admin.client, "openai", fake);
  const set = await admin.client.call(embeddingSettingsApi.update, { body: { platformSlug: "openai", model: "text-embedding-3-small" } });
  expect(set.status).toBe(200);
  alice = (await registerAndSignIn(t.app)).user.id;
  bob = (await registerAndSignIn(t.app)).user.id;
  const { db } = t.app.ctx;
  [{ id: aliceBiology }, { id: bobBiology }] = (await db
    .insert(knowledgeCollections)
    .values([
      { userId: alice, name: "Biology" },
      { userId: bob, name: "Biology" },
    ])
    .returning({ id: knowledgeCollections.id })) as [{ id: number }, { id: number }];
  for (const [name, text] of Object.entries(DOCS)) {
    const inBiology = name === "photosynthesis" || name === "mitochondria";
    files[`alice-${name}`] = await insertFile(t.app, {
      userId: alice,
      name: `${name}.md`,
      bytes: text,
      collectionId: inBiology ? aliceBiology : null,
    });
  }
  // Bob's notes share many of Alice's words (cell, glucose, oxygen, plant) but say other things.
  files["bob-notes"] = await insertFile(t.app, {
    userId: bob,
    name: "notes.md",
    bytes: "# Notes\n\nMy garden plant needs water and oxygen; the cell phone glucose app tracks my sugar.",
    collectionId: bobBiology,
  });
  await t.app.ctx.ingestion.close();
  const { ctx } = t.app;
  const worker = new IngestionWorker({ db, fileStore: ctx.fileStore, vectors: ctx.vectors, platformDeps: ctx.platformDeps });
  expect(await worker.drain()).toBe(5);
  deps = { db, vectors: ctx.vectors, platformDeps: ctx.platformDeps };
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ask = (userId: number, query: string, extra: Partial<Parameters<typeof retrievePassages>[1]> = {}) =>
  retrievePassages(deps, { userId, query, budgetTokens: 4000, ...extra });

describe("the right passage wins", () => {
  it("a question's words find its passage first, and the vector half ran where pgvector is", async () => {
    const before = fake.requests.filter((r) => r.path.endsWith("/embeddings")).length;
    const found = await ask(alice, "What is the powerhouse of the cell?");
    expect(found[0]?.fileId).toBe(files["alice-mitochondria"]);
    expect(found[0]).toMatchObject({ fileName: "mitochondria.md", page: null, headingPath: "Mitochondria" });
    expect(found[0]?.content).toMatch(/powerhouse/);
    const asked = fake.requests.filter((r) => r.path.endsWith("/embeddings")).length - before;
    expect(asked).toBe(usingPostgres() ? 0 : 1);

    const lava = await ask(alice, "why does lava come out of a volcano");
    expect(lava[0]?.fileId).toBe(files["alice-volcano"]);
    const moon = await ask(alice, "how does the moon move the ocean");
    expect(moon[0]?.fileId).toBe(files["alice-tides"]);
  });

  it("the vector half alone: a question with no word in common still finds the passage its vector is near (with pgvector)", async () => {
    const near = { key: "openai/text-embedding-3-small", vector: fakeEmbedding(DOCS.tides, 1536) };
    if (usingPostgres()) {
      // No pgvector: the vector half never runs (the question is not even embedded), so only words find passages.
      expect(t.app.ctx.vectors.available).toBe(false);
      let embedded = 0;
      const embedQuery = async () => {
        embedded += 1;
        return near;
      };
      const search = (query: string) => retrievePassages({ ...deps, embedQuery }, { userId: alice, query, budgetTokens: 4000 });
      expect(await search("qqqq zzzz")).toEqual([]);
      const byWords = await search("moon gravity tides");
      expect(byWords[0]?.fileId).toBe(files["alice-tides"]);
      expect(byWords.every((p) => /moon|gravity|tides/i.test(p.content))).toBe(true);
      expect(embedded).toBe(0);
      return;
    }
    const found = await retrievePassages(
      { ...deps, embedQuery: async () => near },
      { userId: alice, query: "qqqq zzzz", budgetTokens: 4000 },
    );
    expect(found[0]?.fileId).toBe(files["alice-tides"]);
    // Bob asking with Alice's vector gets only his own pieces.
    const asBob = await retrievePassages(
      { ...deps, embedQuery: async () => near },
      { userId: bob, query: "qqqq zzzz", budgetTokens: 4000 },
    );
    expect(asBob.map((p) => p.fileId)).toEqual([files["bob-notes"]]);
  });

  it("passages are taken in order within the budget", async () => {
    const all = await ask(alice, "glucose oxygen cell plant", { limit: 10 });
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = all[0];
    const small = await ask(alice, "glucose oxygen cell plant", { budgetTokens: first?.tokens ?? 1 });
    expect(small).toEqual([first]);
    expect(await ask(alice, "glucose oxygen cell plant", { budgetTokens: 0 })).toEqual([]);
    expect(await ask(alice, "glucose", { limit: 1 })).toHaveLength(1);
    expect(await ask(alice, "   ")).toEqual([]);
  });
});

describe("scoped to the caller in SQL", () => {
  it("Bob, asking with Alice's words, gets only his own passage", async () => {
    const found = await ask(bob, "powerhouse of the cell glucose oxygen chlorophyll plant");
    expect(found.map((p) => p.fileId)).toEqual([files["bob-notes"]]);
    // No word of his: full text finds nothing; the vector half (PGlite) can only offer his own nearest piece.
    const unrelated = await ask(bob, "mitochondria powerhouse volcano magma");
    expect(unrelated.map((p) => p.fileId)).toEqual(usingPostgres() ? [] : [files["bob-notes"]]);
  });

  it("Alice's file and collection ids give Bob nothing; her own give her only what they hold", async () => {
    const aliceIds = Object.entries(files)
      .filter(([name]) => name.startsWith("alice-"))
      .map(([, id]) => id);
    expect(await ask(bob, "cell glucose oxygen", { fileIds: aliceIds })).toEqual([]);
    expect(await ask(bob, "cell glucose oxygen", { collectionIds: [aliceBiology] })).toEqual([]);
    expect((await ask(bob, "cell glucose oxygen", { collectionIds: [aliceBiology, bobBiology] })).map((p) => p.fileId)).toEqual([
      files["bob-notes"],
    ]);
    const inBiology = await ask(alice, "glucose oxygen volcano tides", { collectionIds: [aliceBiology] });
    expect(new Set(inBiology.map((p) => p.fileId))).toEqual(new Set([files["alice-photosynthesis"], files["alice-mitochondria"]]));
    const oneFile = await ask(alice, "glucose oxygen volcano", { fileIds: [files["alice-volcano"] as number] });
    expect(oneFile.map((p) => p.fileId)).toEqual([files["alice-volcano"]]);
    expect(await ask(alice, "glucose", { fileIds: [], collectionIds: [] })).toEqual([]);
    expect(await ask(alice, "glucose", { collectionIds: [bobBiology] })).toEqual([]);
  });

  it("reading a whole file: the owner's pieces in order without repeated overlap; another user's file is empty", async () => {
    const long = Array.from({ length: 30 }, (_, i) =>
      `Paragraph ${i + 1} talks about topic number ${i + 1} at some length. `.repeat(12),
    ).join("\n\n");
    const id = await insertFile(t.app, { userId: alice, name: "long.md", bytes: `# Long\n\n${long}` });
    const { ctx } = t.app;
    await new IngestionWorker({ db: ctx.db, fileStore: ctx.fileStore, vectors: ctx.vectors, platformDeps: ctx.platformDeps }).drain();
    const chunks = await ctx.db.execute(sql`select count(*)::int as n from knowledge_chunks where file_id = ${id}`);
    expect(Number((chunks.rows[0] as { n: number }).n)).toBeGreaterThan(2);
    const whole = await readWholeFile(deps, alice, id);
    const text = whole.map((p) => p.content).join("\n\n");
    for (let i = 1; i <= 30; i++) {
      // Each paragraph's 12 sentences exactly once: the overlap the chunker repeats is gone.
      expect(text.split(`Paragraph ${i} talks`).length - 1).toBe(12);
    }
    expect(whole.map((p) => p.chunkId)).toEqual([...whole.map((p) => p.chunkId)].sort((a, b) => a - b));
    expect(await readWholeFile(deps, bob, id)).toEqual([]);
  });
});
