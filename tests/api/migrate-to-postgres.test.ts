import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToPostgres } from "../../src/server/db/backup/migrate.js";
import { pgliteSession, pgSession } from "../../src/server/db/backup/sessions.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { appOn, expectServed, type Populated, populate, tableDigests } from "../helpers/backup-kit.js";
import { createScratchPostgres, usingPostgres } from "../helpers/test-database.js";

/**
 * `npm run migrate-to-postgres` (issue 43, decision 075): an embedded install used through the API moves to an empty
 * PostgreSQL database; every table compares equal, the app started on PostgreSQL with the install's secret serves it;
 * a target already in use is refused. It needs a PostgreSQL server, so it runs in the PostgreSQL pass only.
 */
describe.runIf(usingPostgres())(
  "moving an embedded install to PostgreSQL (runs with TEST_DB=postgres: it needs a PostgreSQL server)",
  () => {
    let root: string;
    let fake: FakeProvider;
    let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
    let data: Populated;
    const dataDir = () => path.join(root, "install");

    beforeAll(async () => {
      root = mkdtempSync(path.join(os.tmpdir(), "lumora-move-"));
      fake = await startOpenAiCompatibleFake();
      scratch = await createScratchPostgres();
      const running = await appOn({ dataDir: dataDir() });
      try {
        data = await populate(running.app, fake);
      } finally {
        await running.close();
      }
    }, 180_000);
    afterAll(async () => {
      await fake?.close();
      await scratch?.drop();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it("copies every table and sequence; the app on PostgreSQL serves it with the install's secret", async () => {
      const result = await migrateToPostgres(path.join(dataDir(), "pglite"), scratch.url);
      const embedded = await pgliteSession(path.join(dataDir(), "pglite"));
      const before = await tableDigests(embedded).finally(() => embedded.close());
      const target = await pgSession(scratch.url, "target");
      const after = await tableDigests(target).finally(() => target.close());
      // Where the target has no pgvector the vectors are left out (the library searches by words until re-indexed).
      for (const table of result.skipped) {
        expect(after[table]).toBeUndefined();
        delete before[table];
      }
      expect(after).toEqual(before);
      expect(after.knowledge_file_bytes?.rows).toBe(1);
      expect(result.rows).toBe(Object.values(before).reduce((sum, table) => sum + table.rows, 0));

      const appSecret = readFileSync(path.join(dataDir(), "app-secret"), "utf8").trim();
      const running = await appOn({ dataDir: path.join(root, "unused"), url: scratch.url, appSecret });
      try {
        await expectServed(running.app, data, fake);
      } finally {
        await running.close();
      }
    }, 180_000);

    it("refuses a target that already holds the app's rows, and leaves it as it was", async () => {
      const target = await pgSession(scratch.url, "target");
      const before = await tableDigests(target).finally(() => target.close());
      await expect(migrateToPostgres(path.join(dataDir(), "pglite"), scratch.url)).rejects.toThrow(/already in use \(rows in chats, /);
      const again = await pgSession(scratch.url, "target");
      expect(await tableDigests(again).finally(() => again.close())).toEqual(before);
    }, 120_000);
  },
);
