// Nothing lost (issue 32): the real server on PGlite in a folder of its own (on PostgreSQL with TEST_DB=postgres) is killed with SIGKILL between two autosaves
// and right after a submit; on each restart every answer saved before the kill and the graded attempt are there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount } from "../helpers/build-test-app.js";
import { QUESTIONS, RIGHT } from "../helpers/quiz-kit.js";
import { cookieFetch, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { createScratchPostgres, usingPostgres } from "../helpers/test-database.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-quiz-restart-"));
// TEST_DB=postgres: the server runs on a scratch PostgreSQL database of its own instead (the same kills).
let postgres: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
beforeAll(async () => {
  if (usingPostgres()) postgres = await createScratchPostgres();
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await postgres?.drop();
});

const start = () =>
  spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn", ...(postgres ? { DATABASE_URL: postgres.url } : {}) }, undefined, {
    readyWithinMs: 120_000,
  });

async function kill(server: RunningServer) {
  server.child.kill("SIGKILL");
  await server.exited;
}

describe("a quiz when the server is killed", () => {
  it("kill -9 between two autosaves and after a submit: every saved answer and the graded attempt are there", {
    timeout: 300_000,
  }, async () => {
    const owner = cookieFetch();
    const learner = cookieFetch();
    const servers: RunningServer[] = [];
    try {
      let server = await start();
      servers.push(server);
      const call = async (client: ReturnType<typeof cookieFetch>, url: string, method = "GET", body?: unknown) => {
        const res = await client.call(`${server.url}${url}`, { method, body });
        const text = await res.text();
        return { status: res.status, json: text ? JSON.parse(text) : null };
      };
      expect((await call(owner, "/api/register", "POST", newAccount())).status).toBe(201);
      expect((await call(learner, "/api/register", "POST", newAccount())).status).toBe(201);
      const course = (await call(owner, "/api/courses", "POST", { title: "Durable quiz" })).json;
      await call(owner, `/api/courses/${course.id}`, "PATCH", { isPublic: true, status: "published" });
      const module = (await call(owner, `/api/courses/${course.id}/modules`, "POST", { title: "M" })).json;
      const quiz = (await call(owner, `/api/modules/${module.id}/lessons`, "POST", { title: "Q", type: "quiz", kind: "quiz" })).json;
      const ids: number[] = [];
      for (const body of QUESTIONS) ids.push((await call(owner, `/api/lessons/${quiz.id}/questions`, "POST", body)).json.id);
      expect((await call(owner, `/api/lessons/${quiz.id}/publish-quiz`, "POST", { passMark: 50, attempts: null })).status).toBe(200);
      const attempt = (await call(learner, `/api/lessons/${quiz.id}/attempts`, "POST")).json;
      const save = (i: number) => call(learner, `/api/attempts/${attempt.id}/answers/${ids[i]}`, "PUT", { value: RIGHT[i] });

      // 1. Two answers saved, then killed before the third.
      expect((await save(0)).status).toBe(200);
      expect((await save(1)).status).toBe(200);
      await kill(server);
      server = await start();
      servers.push(server);
      const resumed = (await call(learner, `/api/lessons/${quiz.id}/attempts`, "POST")).json;
      expect(resumed.id).toBe(attempt.id);
      expect(resumed.answers).toEqual([
        { questionId: ids[0], value: RIGHT[0] },
        { questionId: ids[1], value: RIGHT[1] },
      ]);

      // 2. The rest saved, submitted, and killed at once after the answer came.
      expect((await save(2)).status).toBe(200);
      expect((await save(3)).status).toBe(200);
      const graded = await call(learner, `/api/attempts/${attempt.id}/submit`, "POST");
      expect(graded.status).toBe(200);
      await kill(server);
      server = await start();
      servers.push(server);
      const after = await call(learner, `/api/attempts/${attempt.id}`);
      expect(after.status).toBe(200);
      expect(after.json).toEqual(graded.json);
      expect(after.json).toMatchObject({ status: "submitted", score: 100, passed: true });
      expect(after.json.answers).toHaveLength(4);
      if (postgres) {
        // The servers ran on the scratch PostgreSQL database: the graded attempt is in it.
        const client = new pg.Client({ connectionString: postgres.url });
        await client.connect();
        const stored = await client.query("select status from quiz_attempts where id = $1", [attempt.id]);
        await client.end();
        expect(stored.rows).toEqual([{ status: "submitted" }]);
      }
    } finally {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await kill(s);
    }
  });
});
