// Nothing lost (issue 32): the real server on PGlite in a folder of its own (on PostgreSQL with TEST_DB=postgres) is killed with SIGKILL between two autosaves
// and right after a submit; on each restart every answer saved before the kill and the graded attempt are there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questionBodySchema, quizzesApi } from "../../src/shared/contracts/assessment.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
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
      // Through the contracts, over real HTTP to whichever server runs now.
      const at = () => server.url;
      expect((await owner.endpoint(at(), authApi.register, { body: newAccount() })).status).toBe(201);
      expect((await learner.endpoint(at(), authApi.register, { body: newAccount() })).status).toBe(201);
      const course = (await owner.endpoint(at(), coursesApi.create, { body: { title: "Durable quiz" } })).data;
      await owner.endpoint(at(), coursesApi.update, { params: { id: course.id }, body: { isPublic: true, status: "published" } });
      const module = (await owner.endpoint(at(), coursesApi.createModule, { params: { id: course.id }, body: { title: "M" } })).data;
      const quiz = (
        await owner.endpoint(at(), lessonsApi.create, { params: { id: module.id }, body: { title: "Q", type: "quiz", kind: "quiz" } })
      ).data;
      const ids: number[] = [];
      for (const question of QUESTIONS) {
        // The kit's questions are read-only literals: the contract's own parse gives the body it types.
        const body = questionBodySchema.parse(question);
        ids.push((await owner.endpoint(at(), quizzesApi.addQuestion, { params: { id: quiz.id }, body })).data.id);
      }
      const published = await owner.endpoint(at(), quizzesApi.publish, { params: { id: quiz.id }, body: { passMark: 50, attempts: null } });
      expect(published.status).toBe(200);
      const attempt = (await learner.endpoint(at(), quizzesApi.startAttempt, { params: { id: quiz.id } })).data;
      const save = (i: number) =>
        learner.endpoint(at(), quizzesApi.saveAnswer, {
          params: { id: attempt.id, questionId: ids[i] ?? 0 },
          body: { value: RIGHT[i] ?? [] },
        });

      // 1. Two answers saved, then killed before the third.
      expect((await save(0)).status).toBe(200);
      expect((await save(1)).status).toBe(200);
      await kill(server);
      server = await start();
      servers.push(server);
      const resumed = (await learner.endpoint(at(), quizzesApi.startAttempt, { params: { id: quiz.id } })).data;
      expect(resumed.id).toBe(attempt.id);
      expect(resumed.answers).toEqual([
        { questionId: ids[0], value: RIGHT[0] },
        { questionId: ids[1], value: RIGHT[1] },
      ]);

      // 2. The rest saved, submitted, and killed at once after the answer came.
      expect((await save(2)).status).toBe(200);
      expect((await save(3)).status).toBe(200);
      const graded = await learner.endpoint(at(), quizzesApi.submit, { params: { id: attempt.id } });
      expect(graded.status).toBe(200);
      await kill(server);
      server = await start();
      servers.push(server);
      const after = await learner.endpoint(at(), quizzesApi.attempt, { params: { id: attempt.id } });
      expect(after.status).toBe(200);
      // The answers as sent, whole: the one read after the restart is the one the submit gave.
      expect(after.response.json()).toEqual(graded.response.json());
      expect(after.data).toMatchObject({ status: "submitted", score: 100, passed: true });
      expect(after.data.answers).toHaveLength(4);
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
