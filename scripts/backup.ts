/**
 * npm run backup -- <file> [--without-secret]
 * Writes a consistent backup of the app's database (every table, the stored files among them) to <file>, gzip of JSON
 * lines (decision 075): the embedded database under DATA_DIR (through a running server's socket when it offers one,
 * otherwise opened here), or DATABASE_URL. The backup holds the app secret that seals the stored keys, so it is
 * written readable by its owner only; --without-secret leaves the secret out (copy DATA_DIR/app-secret yourself).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/server/config.js";
import { dumpLines } from "../src/server/db/backup/dump.js";
import { writeBackupFile } from "../src/server/db/backup/format.js";
import { openPgliteSource, pgSession, type SqlSession } from "../src/server/db/backup/sessions.js";
import { addressWithoutPassword, describeError } from "../src/server/lib/log-redaction.js";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { "without-secret": { type: "boolean" } } });
const file = positionals[0];
if (!file || positionals.length > 1) {
  console.error("usage: npm run backup -- <file> [--without-secret]");
  process.exit(2);
}

const config = loadConfig();
const secretFile = path.resolve(config.DATA_DIR, "app-secret");
const appSecret = values["without-secret"]
  ? undefined
  : (config.APP_SECRET ?? (existsSync(secretFile) ? readFileSync(secretFile, "utf8").trim() : undefined));

const started = performance.now();
let session: SqlSession | undefined;
try {
  session = config.DATABASE_URL
    ? await pgSession(config.DATABASE_URL, addressWithoutPassword(config.DATABASE_URL, "the PostgreSQL database"))
    : await openPgliteSource(path.resolve(config.DATA_DIR, "pglite"));
  if (session.live) console.log(`Reading ${session.where}: the server's other work waits until the backup ends.`);
  let rows = 0;
  let tables = 0;
  const source = session;
  async function* counted() {
    for await (const line of dumpLines(source, { appSecret })) {
      if (line.startsWith("[")) tables += line.startsWith('["table"') ? 1 : 0;
      else rows += 1;
      yield line;
    }
  }
  const bytes = await writeBackupFile(path.resolve(file), counted(), { secret: !!appSecret });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Backed up ${tables} tables, ${rows} rows from ${source.where} to ${path.resolve(file)} (${(bytes / 1e6).toFixed(1)} MB, ${seconds} s).`,
  );
  console.log(
    appSecret
      ? "The file holds the app secret that seals the stored provider keys and SMTP password: keep it as private as that secret (it is readable by you only)."
      : "The file holds no app secret: keep a copy of DATA_DIR/app-secret (or APP_SECRET), or a restore cannot read the stored provider keys and SMTP password.",
  );
} catch (error) {
  console.error(`Backup failed: ${describeError(error)}`);
  process.exitCode = 1;
} finally {
  await session?.close();
}
