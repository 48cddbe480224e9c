// kill -9 while a library file's bytes are written (decision 074): the real server on PGlite in a folder of its own is
// killed once its upload's parts are being written, before the file's row is stored. On the next start the database
// opens, the file is nowhere (not listed, not counted), and the parts it left are the sweep's, which removes them.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/db/client.js";
import { FILE_PART_BYTES, sweepLooseParts } from "../../src/server/modules/knowledge/file-store.js";
import { newAccount } from "../helpers/build-test-app.js";
import { multipartFile } from "../helpers/multipart.js";
import { cookieFetch, type RunningServer, spawnServer } from "../helpers/spawn-server.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-bytes-kill-"));
const pgliteDir = path.join(dataDir, "pglite");
const walDir = path.join(pgliteDir, "pg_wal");
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const walSegments = () => new Set(readdirSync(walDir).filter((name) => /^[0-9A-F]{24}$/.test(name)));

describe("a file's bytes when the server is killed", () => {
  it("kill -9 midway through the parts: no file on the next start, and the sweep removes its parts", { timeout: 300_000 }, async () => {
    const client = cookieFetch();
    const servers: RunningServer[] = [];
    try {
      const first = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, undefined, { readyWithinMs: 120_000 });
      servers.push(first);
      expect((await client.call(`${first.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);

      // 40 MiB, an image by its signature: 160 parts, whose writing fills the database's log (16 MiB a segment) more
      // than twice before the row can be stored. The second new log segment says at least one segment's worth of
      // parts is written, and the row is not: the kill lands in the middle.
      const size = 40 * 1024 * 1024;
      // Random, so that the database cannot compress the parts: each is a MiB of the log.
      const bytes = randomBytes(size);
      Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").copy(bytes, 0);
      const before = walSegments();
      const body = multipartFile("file", "big.png", "image/png", bytes);
      const answer = fetch(`${first.url}/api/files`, {
        method: "POST",
        headers: { ...body.headers, cookie: client.cookie },
        body: body.payload,
      })
        .then((res) => `answered ${res.status}`)
        .catch(() => "cut off");
      let answered: string | null = null;
      void answer.then((how) => {
        answered = how;
      });
      const deadline = Date.now() + 240_000;
      while ([...walSegments()].filter((name) => !before.has(name)).length < 2) {
        if (answered) throw new Error(`the upload ${answered} before its parts were half written`);
        if (Date.now() > deadline) throw new Error("the upload's parts were not written within 4 minutes");
        await sleep(10);
      }
      first.child.kill("SIGKILL");
      await first.exited;
      expect(await answer).toBe("cut off");

      // The next start opens the database and shows no file.
      const second = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, undefined, { readyWithinMs: 120_000 });
      servers.push(second);
      const listed = await client.call(`${second.url}/api/files`);
      expect(listed.status).toBe(200);
      expect(await listed.json()).toEqual([]);
      const usage = (await (await client.call(`${second.url}/api/usage`)).json()) as { storage: { usedBytes: number; files: number } };
      expect(usage.storage).toMatchObject({ usedBytes: 0, files: 0 });
      second.child.kill("SIGTERM");
      await second.exited;

      // The parts written before the kill are there, under no row; the sweep (an hour after, here at once) takes them.
      const database = await openDatabase({ pgliteDir });
      try {
        const count = async () =>
          (
            await database.db.execute(sql`select count(*)::int as parts, count(distinct file_id)::int as files,
            (select count(*)::int from knowledge_files) as rows from knowledge_file_bytes`)
          ).rows[0];
        const left = (await count()) as { parts: number; files: number; rows: number };
        expect(left.rows).toBe(0);
        expect(left.files).toBe(1);
        expect(left.parts).toBeGreaterThan(0);
        expect(left.parts).toBeLessThan(size / FILE_PART_BYTES);
        expect(await sweepLooseParts(database.db, "0 seconds")).toBe(left.parts);
        expect(await count()).toEqual({ parts: 0, files: 0, rows: 0 });
      } finally {
        await database.close();
      }
    } finally {
      for (const server of servers) server.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
    }
  });
});
