/**
 * npm run bench:backup [-- <messages> <MiB per file>]   (default 100000 and 20)
 * Decision 075: how long a backup of a populated embedded database takes, opened by the backup itself and through a
 * served PGlite's socket (as a running server's: its one session is held that long), and how long the restore into
 * a new data folder takes. The database is seeded in bulk SQL in a scratch folder: one user, 100 chats, the messages
 * (about 600 characters each), and three library files of random bytes written a MiB a statement. Prints the times,
 * the file's size and this process's RSS after each step; the scratch folder is removed at the end.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { sql } from "drizzle-orm";
import { dumpLines } from "../src/server/db/backup/dump.js";
import { BackupReader, writeBackupFile } from "../src/server/db/backup/format.js";
import { restoreIntoDataDir } from "../src/server/db/backup/restore.js";
import { openPgliteSource, pgliteSocketPath } from "../src/server/db/backup/sessions.js";
import { openDatabase } from "../src/server/db/client.js";
import { createPglite } from "../src/server/db/pglite-engine.js";
import { lockPgliteDir } from "../src/server/db/pglite-lock.js";

const root = mkdtempSync(path.join(os.tmpdir(), "bk-measure-"));
const dir = path.join(root, "a", "pglite");
const messages = Number(process.argv[2] ?? 100000);
const fileMb = Number(process.argv[3] ?? 20);
const d = await openDatabase({ pgliteDir: dir });
await d.db.execute(sql`insert into users (username, name, email, password_hash) values ('u1','U','u1@example.com','x')`);
await d.db.execute(
  sql`insert into chats (user_id, title, ai_platform, model) select 1, 'Chat ' || g, 'openai', 'gpt' from generate_series(1, 100) g`,
);
await d.db.execute(
  sql.raw(
    `insert into messages (chat_id, user_id, role, content) select 1 + (g % 100), 1, case when g % 2 = 0 then 'user' else 'assistant' end, repeat('Some words of a message, about six hundred characters long. ', 10) || g from generate_series(1, ${messages}) g`,
  ),
);
for (let i = 0; i < 3; i++) {
  const [f] = (
    await d.db.execute<{ id: number }>(
      sql`insert into knowledge_files (user_id, name, mime_type, kind, byte_size, sha256) values (1, ${`f${i}.bin`}, 'application/pdf', 'pdf', ${fileMb * 1024 * 1024}, 'x') returning id`,
    )
  ).rows;
  const bytes = randomBytes(fileMb * 1024 * 1024);
  // a MiB a statement
  await d.db.execute(sql`insert into knowledge_file_bytes (file_id, data) values (${f!.id}, ''::bytea)`);
  for (let o = 0; o < bytes.length; o += 1024 * 1024) {
    await d.db.execute(
      sql`update knowledge_file_bytes set data = data || decode(${bytes.subarray(o, o + 1024 * 1024).toString("base64")}, 'base64') where file_id = ${f!.id}`,
    );
  }
}
await d.close();
console.log(`populated: ${messages} messages, 3 files of ${fileMb} MiB`);

const file = path.join(root, "b.gz");
let t = performance.now();
let s = await openPgliteSource(dir);
await writeBackupFile(file, dumpLines(s), { secret: false });
await s.close();
console.log(
  `backup, folder opened here: ${((performance.now() - t) / 1000).toFixed(1)} s, ${(statSync(file).size / 1e6).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
);

const unlock = lockPgliteDir(dir);
const client = await createPglite(dir, "16MB");
const server = new PGLiteSocketServer({ db: client, path: pgliteSocketPath(dir) });
await server.start();
t = performance.now();
s = await openPgliteSource(dir);
await writeBackupFile(file, dumpLines(s), { secret: false });
await s.close();
console.log(
  `backup, through the socket (live=${s.live}): ${((performance.now() - t) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
);
await server.stop();
await client.close();
unlock();

t = performance.now();
await restoreIntoDataDir(await BackupReader.open(file), path.join(root, "c"), {});
console.log(`restore: ${((performance.now() - t) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
rmSync(root, { recursive: true, force: true });
