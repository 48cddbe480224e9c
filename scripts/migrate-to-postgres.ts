/**
 * npm run migrate-to-postgres -- <DATABASE_URL>
 * Moves the embedded database under DATA_DIR to an empty PostgreSQL database (decision 075): the target migrated by the
 * app's own migrations, every table copied, every sequence set; then says what to set next. Stop the server first.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/server/config.js";
import { migrateToPostgres } from "../src/server/db/backup/migrate.js";
import { addressWithoutPassword, describeError } from "../src/server/lib/log-redaction.js";

const [url, ...extra] = process.argv.slice(2);
if (!url || extra.length > 0 || !/^postgres(ql)?:\/\//.test(url)) {
  console.error("usage: npm run migrate-to-postgres -- postgres://user:password@host:5432/database");
  process.exit(2);
}

const config = loadConfig();
const pgliteDir = path.resolve(config.DATA_DIR, "pglite");
const secretFile = path.resolve(config.DATA_DIR, "app-secret");
const started = performance.now();
try {
  const result = await migrateToPostgres(pgliteDir, url);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Moved ${result.tables} tables, ${result.rows} rows from ${pgliteDir} to ${addressWithoutPassword(url, "the PostgreSQL database")} in ${seconds} s.`,
  );
  if (result.skipped.length > 0) {
    console.log(
      `Left out: ${result.skipped.join(", ")} (no pgvector there): the library's search uses its words until files are indexed again.`,
    );
  }
  const secretStep = config.APP_SECRET
    ? "APP_SECRET: keep the value this install has now; it seals the stored provider keys and SMTP password."
    : existsSync(secretFile)
      ? `APP_SECRET: the value in ${secretFile} (it seals the stored provider keys and SMTP password; keep it private).`
      : "APP_SECRET: a new random value of at least 32 characters (this install has stored no secret yet).";
  console.log(["Next, in the server's environment:", "  DATABASE_URL: the URL you gave here.", `  ${secretStep}`].join("\n"));
  console.log(`Then start the server. Keep ${pgliteDir} until you have checked the move: the server no longer uses it.`);
} catch (error) {
  console.error(`Moving to PostgreSQL failed: ${describeError(error)}`);
  process.exitCode = 1;
}
