// kill -9 during ingestion (issue 30, decision 036): the real server on PGlite in a folder of its own is killed while
// it embeds a file's pieces; on the next start the file finishes, with as many pieces as a clean reading gives, one
// vector per piece, nothing duplicated and nothing stuck.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/db/client.js";
import { knowledgeFileBytes, knowledgeFiles } from "../../src/server/db/schema/index.js";
import { extractChunks } from "../../src/server/modules/knowledge/reading/extract-text.js";
import { answerEmbeddings, type EmbeddingRequest } from "../fakes/fake-embeddings.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { markdownDocument } from "../helpers/knowledge-files.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-ingest-restart-"));
const pgliteDir = path.join(dataDir, "pglite");

/** The embeddings stand-in's answers, each after a pause, so that a file's indexing lasts long enough to be killed. */
let served = 0;
let inputs = 0;
const slow: Server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    setTimeout(() => {
      const request = JSON.parse(body) as EmbeddingRequest;
      const answer = answerEmbeddings(request);
      served += 1;
      inputs += Array.isArray(request.input) ? request.input.length : 1;
      res.writeHead(answer.ok ? 200 : answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.ok ? answer.body : { error: { message: answer.reason } }));
    }, 600);
  });
});
const slowUrl = new Promise<string>((resolve) =>
  slow.listen(0, "127.0.0.1", () => {
    const address = slow.address();
    resolve(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`);
  }),
);
afterAll(async () => {
  await new Promise((resolve) => slow.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const DOCUMENT = markdownDocument(
  "Handbook",
  260,
  300,
  "policy holiday expense travel office laptop security badge meeting budget review contract".split(" "),
);

async function stop(server: RunningServer, signal: NodeJS.Signals) {
  server.child.kill(signal);
  await server.exited;
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, withinMs = 90_000) {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("ingestion when the server is killed", () => {
  it("kill -9 while indexing: the next start finishes the file, nothing duplicated, nothing stuck", { timeout: 240_000 }, async () => {
    const url = await slowUrl;
    const client = cookieFetch();
    const servers: RunningServer[] = [];
    try {
      // 1. An admin, OpenAI pointed at the slow stand-in, and its embedding model chosen.
      const first = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, undefined, { readyWithinMs: 120_000 });
      servers.push(first);
      expect((await client.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
      await pointSpawnedOpenAiAt(client, first.url, { url }, FAKE_KEY);
      const set = await client.call(`${first.url}/api/admin/embedding-settings`, {
        method: "PUT",
        body: { platformSlug: "openai", model: "text-embedding-3-small" },
      });
      expect(set.status).toBe(200);
      await stop(first, "SIGTERM");

      // 2. A file stored as the upload stores it (the server is down, so the test opens its database).
      const bytes = new TextEncoder().encode(DOCUMENT);
      const expected = (await extractChunks(bytes, { kind: "markdown", mime: "text/markdown" })).chunks.length;
      expect(expected).toBeGreaterThan(200);
      let database = await openDatabase({ pgliteDir });
      const [file] = await database.db
        .insert(knowledgeFiles)
        .values({
          userId: 1,
          name: "handbook.md",
          mimeType: "text/markdown",
          kind: "markdown",
          byteSize: bytes.byteLength,
          sha256: createHash("sha256").update(bytes).digest("hex"),
        })
        .returning({ id: knowledgeFiles.id });
      const fileId = file?.id as number;
      await database.db.insert(knowledgeFileBytes).values({ fileId, data: bytes });
      await database.close();

      // 3. Started: it reads the file and embeds; killed after two batches came back.
      const second = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, undefined, { readyWithinMs: 120_000 });
      servers.push(second);
      await waitFor("two batches embedded", () => served >= 2);
      await stop(second, "SIGKILL");
      const beforeRestart = inputs;
      expect(beforeRestart).toBeLessThan(expected);

      // 4. Started again: the file finishes (the admin's re-index count says so).
      const third = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, undefined, { readyWithinMs: 120_000 });
      servers.push(third);
      await waitFor("the file to be ready with vectors", async () => {
        const answer = await client.call(`${third.url}/api/admin/embedding-settings`);
        const body = (await answer.json()) as { reindex: { done: number; total: number } };
        return body.reindex.total === 1 && body.reindex.done === 1;
      });
      await stop(third, "SIGTERM");
      // The rerun embedded what was missing, not the whole file again (a batch in flight at the kill may be redone).
      expect(inputs).toBeLessThanOrEqual(expected + 64);

      database = await openDatabase({ pgliteDir });
      try {
        const { db } = database;
        const row = (
          await db.execute(sql`select status, stage, claimed_by, progress_done, progress_total, embedding_model
          from knowledge_files where id = ${fileId}`)
        ).rows[0];
        expect(row).toEqual({
          status: "ready",
          stage: null,
          claimed_by: null,
          progress_done: expected,
          progress_total: expected,
          embedding_model: "openai/text-embedding-3-small",
        });
        const counts = (
          await db.execute(sql`select count(*)::int as chunks, count(distinct chunk_index)::int as distinct_chunks,
          (select count(*)::int from knowledge_embeddings e join knowledge_chunks c2 on c2.id = e.chunk_id where c2.file_id = ${fileId}) as vectors
          from knowledge_chunks where file_id = ${fileId}`)
        ).rows[0];
        expect(counts).toEqual({ chunks: expected, distinct_chunks: expected, vectors: expected });
      } finally {
        await database.close();
      }
    } finally {
      for (const server of servers) server.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
    }
  });
});
