/**
 * npm run restore -- <file>
 * Restores a backup made by `npm run backup` into the embedded database of an empty DATA_DIR (or, with DATABASE_URL,
 * into an empty PostgreSQL database), with the backup's app secret (decision 075). Refuses a data folder that
 * already holds a database, a backup of a newer version, and a damaged or cut-short file: nothing is left half written.
 */
import path from "node:path";
import { loadConfig } from "../src/server/config.js";
import { BackupReader } from "../src/server/db/backup/format.js";
import { type LoadResult, restoreIntoDataDir, restoreIntoPostgres } from "../src/server/db/backup/restore.js";
import { addressWithoutPassword, describeError } from "../src/server/lib/log-redaction.js";

const [file, ...extra] = process.argv.slice(2);
if (!file || extra.length > 0) {
  console.error("usage: npm run restore -- <file>");
  process.exit(2);
}

const config = loadConfig();
const started = performance.now();
let reader: BackupReader | undefined;
try {
  reader = await BackupReader.open(path.resolve(file));
  let result: LoadResult;
  let where: string;
  let secret: string;
  if (config.DATABASE_URL) {
    const saved = reader.header.appSecret;
    if (saved && config.APP_SECRET !== saved) {
      throw new Error(
        `APP_SECRET is ${config.APP_SECRET ? "another secret than" : "not set to"} the one this backup's stored keys are sealed with. Set APP_SECRET to the secret of the install the backup was made from (its DATA_DIR/app-secret or its APP_SECRET) and run the restore again.`,
      );
    }
    result = await restoreIntoPostgres(reader, config.DATABASE_URL);
    where = addressWithoutPassword(config.DATABASE_URL, "the PostgreSQL database");
    secret = saved ? "APP_SECRET is the backup's secret." : "This backup holds no app secret: APP_SECRET must be the one it was made with.";
  } else {
    const restored = await restoreIntoDataDir(reader, config.DATA_DIR, { appSecret: config.APP_SECRET });
    result = restored;
    where = path.resolve(config.DATA_DIR, "pglite");
    secret = restored.secret;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Restored ${result.tables} tables, ${result.rows} rows (backup of ${reader.header.createdAt}) into ${where} in ${seconds} s.`,
  );
  if (result.skipped.length > 0) {
    console.log(
      `Left out: ${result.skipped.join(", ")} (no pgvector here): the library's search uses its words until files are indexed again.`,
    );
  }
  console.log(secret);
} catch (error) {
  console.error(`Restore failed: ${describeError(error)}`);
  process.exitCode = 1;
} finally {
  await reader?.close();
}
