/**
 * npm run bench:retrieval
 * Issue 30's retrieval at size: FILES files (1,000) of CHUNKS_PER_FILE pieces (100), so 100,000 pieces of one user,
 * inserted in bulk straight into the tables, with vectors from the provider stand-in's own function (`fakeEmbedding`,
 * tests/fakes: hashed words, so texts sharing words are near) at DIMS dimensions (256), and the HNSW index the app
 * makes. Each piece is 60 words drawn (skewed, like real text) from 3,000 made-up words plus its file's topic word; a
 * labelled query set (QUERIES, 200) asks for one piece each with four of its words inside a question ("what does the
 * document say about ..."). Reports p50 and p99 of `retrievePassages` (hybrid where pgvector is, full text only on
 * PostgreSQL without it) and the top-5 hit rate: the piece asked for among the first five, for hybrid, full text
 * alone and vectors alone.
 * BENCH_DB=postgres uses BENCH_DATABASE_URL / TEST_DATABASE_URL (a scratch database, dropped); otherwise PGlite in memory.
 */
import { sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { type RetrievalDeps, retrievePassages } from "../src/server/modules/knowledge/retrieval/retrieve.js";
import { vectorLiteral } from "../src/server/modules/knowledge/retrieval/vector-store.js";
import { fakeEmbedding } from "../tests/fakes/fake-embeddings.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const FILES = Number(process.env.FILES ?? 1000);
const CHUNKS_PER_FILE = Number(process.env.CHUNKS_PER_FILE ?? 100);
const DIMS = Number(process.env.DIMS ?? 256);
const QUERIES = Number(process.env.QUERIES ?? 200);
const WORDS_PER_CHUNK = 60;
const MODEL_KEY = "bench/fake-embed";

/** A seeded random generator (mulberry32): the same corpus every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(): string[] {
  const a = ["ba", "ko", "mi", "tu", "re", "sa", "lo", "ne", "vi", "da", "po", "ge", "ru", "fa", "zi"];
  const b = ["ran", "lem", "dor", "vik", "sul", "mat", "pen", "gor", "tis", "bal", "nex", "quo", "ril", "sam"];
  const c = ["", "a", "o", "is", "en", "um", "ar", "ix", "on", "el", "us", "ta", "ri", "no", "e"];
  const words: string[] = [];
  for (const x of a) for (const y of b) for (const z of c) if (words.length < 3000) words.push(x + y + z);
  return words;
}

const TOPICS = ["astronomy", "botany", "chemistry", "geology", "history", "law", "medicine", "music", "physics", "zoology"];

async function main() {
  const usePostgres = process.env.BENCH_DB === "postgres";
  const scratch = usePostgres ? await createScratchPostgres() : undefined;
  const database = await openDatabase(scratch ? { url: scratch.url } : {});
  const app = await buildApp({ config: testConfig(), database, logger: false });
  await app.ctx.ingestion.close();
  const { db } = database;
  const vectors = app.ctx.vectors;
  try {
    const register = await app.inject({ method: "POST", url: "/api/register", payload: newAccount() });
    const userId = register.json().id as number;
    const words = vocabulary();
    const next = random(42);
    // Skewed: a few words are very common, most are rare (as in real text).
    const word = () => words[Math.floor(words.length * next() ** 2.5)] as string;

    const started = performance.now();
    const fileIds: number[] = [];
    for (let at = 0; at < FILES; at += 500) {
      const rows = Array.from({ length: Math.min(500, FILES - at) }, (_, i) => {
        const n = at + i;
        return sql`(${userId}::int, ${`file-${n}.md`}, 'text/markdown', 'markdown', 1000, ${`hash${n}`}, 'ready', ${CHUNKS_PER_FILE}::int, ${CHUNKS_PER_FILE}::int, ${vectors.available ? MODEL_KEY : null})`;
      });
      const inserted = await db.execute(sql`
        insert into knowledge_files (user_id, name, mime_type, kind, byte_size, sha256, status, progress_done, progress_total, embedding_model)
        values ${sql.join(rows, sql`, `)} returning id`);
      fileIds.push(...(inserted.rows as { id: number }[]).map((r) => Number(r.id)));
    }
    const texts: string[] = [];
    const chunkFile: number[] = [];
    for (let f = 0; f < FILES; f++) {
      const topic = TOPICS[f % TOPICS.length] as string;
      for (let c = 0; c < CHUNKS_PER_FILE; c++) {
        const body = Array.from({ length: WORDS_PER_CHUNK }, word);
        body.splice(Math.floor(next() * body.length), 0, topic);
        texts.push(body.join(" "));
        chunkFile.push(f);
      }
    }
    const chunkIds: number[] = [];
    const BATCH = 1000;
    for (let at = 0; at < texts.length; at += BATCH) {
      const rows = texts.slice(at, at + BATCH).map((text, i) => {
        const n = at + i;
        return sql`(${fileIds[chunkFile[n] as number]}::int, ${userId}::int, ${n % CHUNKS_PER_FILE}::int, ${text}, 80)`;
      });
      const inserted = await db.execute(sql`
        insert into knowledge_chunks (file_id, user_id, chunk_index, content, tokens)
        values ${sql.join(rows, sql`, `)} returning id`);
      chunkIds.push(...(inserted.rows as { id: number }[]).map((r) => Number(r.id)));
    }
    const chunksAt = performance.now();
    if (vectors.available) {
      for (let at = 0; at < texts.length; at += BATCH) {
        const rows = texts
          .slice(at, at + BATCH)
          .map(
            (text, i) =>
              sql`(${chunkIds[at + i]}::int, ${userId}::int, ${MODEL_KEY}, ${DIMS}::int, ${vectorLiteral(fakeEmbedding(text, DIMS))}::vector)`,
          );
        await db.execute(
          sql`insert into knowledge_embeddings (chunk_id, user_id, model, dims, embedding) values ${sql.join(rows, sql`, `)}`,
        );
      }
    }
    const vectorsAt = performance.now();
    await db.execute(sql`set maintenance_work_mem = '256MB'`).catch(() => {});
    if (vectors.available) await vectors.ensureIndex(DIMS);
    await db.execute(sql`analyze knowledge_chunks`);
    if (vectors.available) await db.execute(sql`analyze knowledge_embeddings`);
    const indexAt = performance.now();
    console.log(
      `seeded ${texts.length} pieces of ${FILES} files: pieces ${((chunksAt - started) / 1000).toFixed(1)} s, vectors ${((vectorsAt - chunksAt) / 1000).toFixed(1)} s, HNSW + analyze ${((indexAt - vectorsAt) / 1000).toFixed(1)} s`,
    );

    // The labelled queries: four of a piece's less common words, inside a question.
    const asked: { query: string; chunkId: number }[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const n = Math.floor(next() * texts.length);
      const pieceWords = (texts[n] as string).split(" ").filter((w) => !TOPICS.includes(w));
      const rare = [...new Set(pieceWords)].sort((x, y) => words.indexOf(y) - words.indexOf(x)).slice(0, 8);
      const picked = rare.sort(() => next() - 0.5).slice(0, 4);
      asked.push({ query: `What does the document say about ${picked.join(" and ")}?`, chunkId: chunkIds[n] as number });
    }

    const deps: RetrievalDeps = {
      db,
      vectors,
      embedQuery: async (query) => ({ key: MODEL_KEY, vector: fakeEmbedding(query, DIMS) }),
    };
    const fullTextOnly: RetrievalDeps = { ...deps, embedQuery: async () => null };
    const run = async (kind: string, retrievalDeps: RetrievalDeps, onlyVectors = false) => {
      // Warm the caches once.
      for (const { query } of asked.slice(0, 5)) await retrievePassages(retrievalDeps, { userId, query, budgetTokens: 4000, limit: 5 });
      const times: number[] = [];
      let hits = 0;
      for (const { query, chunkId } of asked) {
        const at = performance.now();
        const found = await retrievePassages(retrievalDeps, {
          userId,
          query: onlyVectors ? "zzzzqqqq" : query,
          budgetTokens: 4000,
          limit: 5,
        });
        times.push(performance.now() - at);
        if (found.some((p) => p.chunkId === chunkId)) hits += 1;
      }
      return { kind, p50: percentile(times, 50), p99: percentile(times, 99), hit: hits / asked.length };
    };
    const results = [];
    if (vectors.available) results.push(await run("hybrid (full text + vectors)", deps));
    results.push(await run("full text only", fullTextOnly));
    if (vectors.available) {
      // The vector half alone: a question with no word in the corpus, embedded as the real question.
      const vectorDeps: RetrievalDeps = { ...deps, embedQuery: async () => null };
      const byQuery = new Map(asked.map((a) => [a.query, a]));
      let current = "";
      vectorDeps.embedQuery = async () => ({ key: MODEL_KEY, vector: fakeEmbedding(current, DIMS) });
      const times: number[] = [];
      let hits = 0;
      for (const { query, chunkId } of byQuery.values()) {
        current = query;
        const at = performance.now();
        const found = await retrievePassages(vectorDeps, { userId, query: "zzzzqqqq", budgetTokens: 4000, limit: 5 });
        times.push(performance.now() - at);
        if (found.some((p) => p.chunkId === chunkId)) hits += 1;
      }
      results.push({ kind: "vectors only", p50: percentile(times, 50), p99: percentile(times, 99), hit: hits / asked.length });
    }
    console.log(
      `\n${database.kind}, ${texts.length} pieces, ${FILES} files, pgvector ${vectors.available ? `yes (${DIMS} dims, HNSW)` : "no"}, ${QUERIES} labelled queries`,
    );
    console.log("| retrieval | p50 ms | p99 ms | top-5 hit rate |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const r of results) console.log(`| ${r.kind} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.hit * 100).toFixed(1)}% |`);
  } finally {
    await app.close();
    await database.close();
    await scratch?.drop();
  }
}

await main();
