import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dumpLines } from "../../src/server/db/backup/dump.js";
import { BackupReader, journalOf, writeBackupFile } from "../../src/server/db/backup/format.js";
import { FILLED_BEFORE_USE, migrationsFor, restoreIntoDataDir } from "../../src/server/db/backup/restore.js";
import { openPgliteSource, pgliteSession, type SqlSession } from "../../src/server/db/backup/sessions.js";
import { type Database, migrationsFolder, openDatabase } from "../../src/server/db/client.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { appOn, expectServed, type Populated, populate, tableDigests } from "../helpers/backup-kit.js";
import { buildTestApp } from "../helpers/build-test-app.js";

/**
 * Backups of the embedded database (issue 43, decision 075): a database used through the API is backed up, restored
 * into a new data folder and compared table by table; the restored app serves it, its sealed provider key included.
 * Refused: a data folder that holds a database, a backup of a newer build, a damaged or cut-short file.
 */
let root: string;
let fake: FakeProvider;
let source: string;
let data: Populated;
let backup: string;
let sourceDigests: Awaited<ReturnType<typeof tableDigests>>;

async function digestsOf(dataDir: string) {
  const session = await pgliteSession(path.join(dataDir, "pglite"));
  try {
    return await tableDigests(session);
  } finally {
    await session.close();
  }
}

async function backupOf(dataDir: string, file: string, appSecret?: string): Promise<number> {
  const session = await openPgliteSource(path.join(dataDir, "pglite"));
  try {
    return await writeBackupFile(file, dumpLines(session, { appSecret }), { secret: !!appSecret });
  } finally {
    await session.close();
  }
}

const restore = async (file: string, dataDir: string, appSecret?: string) =>
  restoreIntoDataDir(await BackupReader.open(file), dataDir, { appSecret });

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "lumora-backup-"));
  fake = await startOpenAiCompatibleFake();
  source = path.join(root, "source");
  const running = await appOn({ dataDir: source });
  try {
    data = await populate(running.app, fake);
  } finally {
    await running.close();
  }
  sourceDigests = await digestsOf(source);
  backup = path.join(root, "backup.jsonl.gz");
  const secret = readFileSync(path.join(source, "app-secret"), "utf8").trim();
  await backupOf(source, backup, secret);
}, 180_000);

afterAll(async () => {
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("backup and restore of the embedded database", () => {
  it("a new database, the app started on it, holds rows only in the tables 'in use' leaves aside", async () => {
    const fresh = await buildTestApp();
    try {
      const tables = await fresh.database.db.execute<{ name: string }>(
        sql`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`,
      );
      const filled: string[] = [];
      for (const { name } of tables.rows) {
        const rows = await fresh.database.db.execute(sql.raw(`select 1 from "${name}" limit 1`));
        if (rows.rows.length > 0) filled.push(name);
      }
      expect(filled).toEqual([...FILLED_BEFORE_USE]);
    } finally {
      await fresh.close();
    }
  });

  it("writes the backup readable by its owner only, since it holds the app secret", () => {
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const header = JSON.parse(gunzipSync(readFileSync(backup)).toString("utf8").split("\n")[0] ?? "");
    expect(header[0]).toBe("lumora-backup");
    expect(header[1].migrations).toBe(journalOf(migrationsFolder).length);
    expect(header[1].tables).toEqual(Object.keys(sourceDigests));
  });

  it("restores into an empty data folder: every table equal, and the app serves it with its sealed key", async () => {
    const target = path.join(root, "restored");
    const result = await restore(backup, target);
    expect(result.skipped).toEqual([]);
    expect(result.secret).toContain(path.join(target, "app-secret"));
    expect(statSync(path.join(target, "app-secret")).mode & 0o777).toBe(0o600);
    const restored = await digestsOf(target);
    expect(restored).toEqual(sourceDigests);
    expect(sourceDigests.uploads?.rows).toBe(1);
    expect(sourceDigests.knowledge_file_bytes?.rows).toBe(1);
    expect(sourceDigests.messages?.rows).toBe(2);
    expect(readdirSync(target).sort()).toEqual(["app-secret", "pglite"]);

    const running = await appOn({ dataDir: target });
    try {
      await expectServed(running.app, data, fake);
      // New rows take new ids: every sequence continues after the restored rows.
      const chat = await running.database.db.execute<{ id: number }>(
        sql`insert into chat_folders (user_id, name) select id, 'New' from users limit 1 returning id`,
      );
      const [max] = (await running.database.db.execute<{ max: number }>(sql`select max(id)::int as max from chat_folders`)).rows;
      expect(Number(chat.rows[0]?.id)).toBe(max?.max);
    } finally {
      await running.close();
    }
  }, 120_000);

  it("refuses a data folder that already holds a database, and leaves it as it was", async () => {
    const target = path.join(root, "restored");
    const before = await digestsOf(target);
    await expect(restore(backup, target)).rejects.toThrow(/already holds a database.*move .* aside/s);
    expect(await digestsOf(target)).toEqual(before);
  }, 60_000);

  it("refuses another app secret in the target's place for it", async () => {
    const target = path.join(root, "other-secret");
    mkdirSync(target);
    writeFileSync(path.join(target, "app-secret"), "another-secret-another-secret-0123456789\n");
    await expect(restore(backup, target)).rejects.toThrow(/holds another app secret/);
    await expect(restore(backup, path.join(root, "env-secret"), "x".repeat(40))).rejects.toThrow(/APP_SECRET is set to another secret/);
    expect(readdirSync(target)).toEqual(["app-secret"]);
  });

  it("refuses a backup of a newer build, before writing anything", async () => {
    const lines = gunzipSync(readFileSync(backup)).toString("utf8").split("\n");
    const header = JSON.parse(lines[0] ?? "");
    header[1].migrations += 1;
    lines[0] = JSON.stringify(header);
    const newer = path.join(root, "newer.jsonl.gz");
    writeFileSync(newer, gzipSync(lines.join("\n")));
    const target = path.join(root, "from-newer");
    await expect(restore(newer, target)).rejects.toThrow(/newer version of the app/);
    expect(readdirSync(root)).not.toContain("from-newer");
  });

  it("refuses a damaged or cut-short file and leaves no database behind", async () => {
    const bytes = readFileSync(backup);
    const text = gunzipSync(bytes).toString("utf8");
    const cases: [string, Buffer, RegExp][] = [
      ["cut.gz", bytes.subarray(0, Math.floor(bytes.length * 0.6)), /damaged or cut short/],
      ["flipped.gz", Buffer.from(bytes.map((b, i) => (i === Math.floor(bytes.length / 2) ? b ^ 0xff : b))), /damaged/],
      // Whole gzip, but the lines stop before the end line: the trailer is what tells.
      ["no-end.gz", gzipSync(text.split("\n").slice(0, -3).join("\n")), /cut short/],
      ["not-a-backup.gz", gzipSync('{"hello": 1}\n'), /not a backup/],
    ];
    await expect(restore(path.join(root, "missing.gz"), path.join(root, "target-missing"))).rejects.toThrow(/No backup file at/);
    for (const [name, content, message] of cases) {
      const file = path.join(root, name);
      writeFileSync(file, content);
      const target = path.join(root, `target-${name}`);
      await expect(restore(file, target), name).rejects.toThrow(message);
      const left = readdirSync(root).includes(`target-${name}`) ? readdirSync(target) : [];
      expect(left, name).toEqual([]);
    }
  }, 300_000);

  it("restores a backup of an older build at its own migrations, then applies the later ones", async () => {
    const journal = journalOf(migrationsFolder);
    const older = migrationsFor({
      format: "lumora-backup",
      version: 1,
      migrations: journal.length - 1,
      lastMigration: journal.at(-2)?.when ?? 0,
      createdAt: "",
      tables: [],
    });
    const oldDir = path.join(root, "old");
    try {
      const database = await openDatabase({ pgliteDir: path.join(oldDir, "pglite"), migrationsFolder: older.folder });
      await database.db.execute(
        sql`insert into users (username, name, email, password_hash) values ('oldtimer', 'Old Timer', 'old@example.com', 'x')`,
      );
      await database.close();
    } finally {
      older.cleanup();
    }
    const file = path.join(root, "old.jsonl.gz");
    await backupOf(oldDir, file);
    const target = path.join(root, "from-old");
    const result = await restore(file, target);
    expect(result.secret).toMatch(/holds no app secret/);
    const session = await pgliteSession(path.join(target, "pglite"));
    try {
      const [count] = await session.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(count?.n).toBe(journal.length);
      expect(await session.query("select username from users")).toEqual([{ username: "oldtimer" }]);
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe("backup of a running server's embedded database, through its socket", () => {
  let dir: string;
  let running: Database;
  let database: Database;

  beforeAll(async () => {
    dir = path.join(root, "live", "pglite");
    // As the server runs it: the folder locked by this process, PGlite on its own thread serving the folder's socket.
    running = await openDatabase({ pgliteDir: dir });
    database = { ...running, close: async () => {} };
  }, 120_000);
  afterAll(async () => {
    await running?.close();
  });

  it("reads through the socket while the folder is held, and the backup restores equal", async () => {
    const app = await buildTestApp({ database, env: { DATA_DIR: path.dirname(dir), APP_SECRET: undefined } });
    let live: Populated;
    try {
      live = await populate(app.app, fake);
    } finally {
      await app.close();
    }
    const session: SqlSession = await openPgliteSource(dir);
    let digests: Awaited<ReturnType<typeof tableDigests>>;
    const file = path.join(root, "live.jsonl.gz");
    try {
      expect(session.live).toBe(true);
      await writeBackupFile(file, dumpLines(session), { secret: false });
      digests = await tableDigests(session);
    } finally {
      await session.close();
    }
    expect(digests.users?.rows).toBe(2);
    const target = path.join(root, "from-live");
    await restore(file, target, "y".repeat(40));
    expect(await digestsOf(target)).toEqual(digests);
    expect(live.fileId).toBeGreaterThan(0);
  }, 180_000);
});
