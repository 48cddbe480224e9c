import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, migrationsFolder, openDatabase } from "../client.js";
import { createEmbeddingsTable, createVectorExtension } from "../vector-table.js";
import { appliedMigrations, quoteIdent, sequencesOf, type TableShape, tablesOf } from "./dump.js";
import { BackupFileError, type BackupHeader, type BackupReader, journalOf, parseControl } from "./format.js";
import { pgliteSession, pgSession, type SqlSession } from "./sessions.js";

/** A batch of rows inserted by one statement: at most this many, and about this much JSON. */
const BATCH_ROWS = 1_000;
const BATCH_CHARS = 8 * 1024 * 1024;
const EMBEDDINGS = "knowledge_embeddings";

/**
 * The tables a database holds rows in before anyone used it: filled by the migrations (the plans' allowances, the
 * embedding settings) or by the server's first start (the AI platforms, the email templates).
 * Any row in any other table means the database is in use. `tests/api/backup-restore.test.ts` checks this list
 * against a new database on which the app has started.
 */
export const FILLED_BEFORE_USE = ["ai_platforms", "email_templates", "embedding_settings", "plan_allowances"] as const;

/** The app's tables that hold rows the migrations did not put there (empty: nobody used this database yet). */
export async function tablesInUse(session: SqlSession): Promise<string[]> {
  const seeded = new Set<string>(FILLED_BEFORE_USE);
  const used: string[] = [];
  for (const table of await tablesOf(session)) {
    if (seeded.has(table.name)) continue;
    const rows = await session.query(`select 1 from ${quoteIdent(table.name)} limit 1`);
    if (rows.length > 0) used.push(table.name);
  }
  return used;
}

export interface LoadResult {
  tables: number;
  rows: number;
  /** Tables of the backup whose rows were left out (vectors, where the target has no pgvector). */
  skipped: string[];
}

/**
 * Loads a backup's tables into the database of `session`, which holds this build's schema at the backup's migration,
 * in one transaction: the tables are emptied, the foreign keys set aside while the rows go in (any order then works),
 * each table's rows inserted in bounded batches through `json_populate_recordset`, every sequence set past its
 * column's largest value, and the foreign keys added again, which checks every row against them. A damaged or
 * cut-short file rolls it all back.
 */
export async function loadBackup(
  session: SqlSession,
  reader: BackupReader,
  options: { skip?: ReadonlySet<string> } = {},
): Promise<LoadResult> {
  const skip = options.skip ?? new Set<string>();
  await session.query("begin");
  try {
    const target = new Map((await tablesOf(session)).map((table) => [table.name, table]));
    const foreignKeys = await session.query<{ table: string; name: string; definition: string }>(`
      select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace order by conname`);
    for (const key of foreignKeys) await session.query(`alter table ${key.table} drop constraint ${quoteIdent(key.name)}`);
    if (target.size > 0) await session.query(`truncate ${[...target.keys()].map(quoteIdent).join(", ")} restart identity`);

    const sequences = new Map<string, { last: bigint; called: boolean }>();
    let current: { name: string; insert: string | null; rows: number } | null = null;
    let batch: string[] = [];
    let batchChars = 0;
    let tables = 0;
    let total = 0;
    let ended = false;
    const flush = async () => {
      if (current?.insert && batch.length > 0) await session.query(current.insert, [`[${batch.join(",")}]`]);
      batch = [];
      batchChars = 0;
    };
    for await (const line of reader.lines()) {
      if (ended) throw damaged("lines follow its end");
      const control = parseControl(line);
      if (!control) {
        if (!current) throw damaged("a row outside any table");
        current.rows += 1;
        if (!current.insert) continue;
        batch.push(line);
        batchChars += line.length;
        if (batch.length >= BATCH_ROWS || batchChars >= BATCH_CHARS) await flush();
        continue;
      }
      const [kind, ...rest] = control;
      if (kind === "table") {
        if (current) throw damaged(`table ${current.name} has no row count`);
        const [name, columns] = rest as [string, string[]];
        current = { name, insert: skip.has(name) ? null : insertFor(target.get(name), name, columns), rows: 0 };
      } else if (kind === "rows") {
        const [name, count] = rest as [string, number];
        if (!current || current.name !== name || current.rows !== count) throw damaged(`table ${name} is incomplete`);
        await flush();
        tables += 1;
        total += count;
        current = null;
      } else if (kind === "sequence") {
        const [name, , , last, called] = rest as [string, string, string, string, boolean];
        sequences.set(name, { last: BigInt(last), called });
      } else if (kind === "end") {
        const [summary] = rest as [{ tables: number; rows: number }];
        if (current || summary.tables !== tables || summary.rows !== total) throw damaged("its tables do not add up");
        ended = true;
      } else {
        throw damaged(`an unknown line "${kind}"`);
      }
    }
    if (!ended) throw new BackupFileError("The backup file is cut short: it stops before its end. Nothing was restored.");

    // Each sequence continues after the backup's value, and never below its column's largest value.
    for (const sequence of await sequencesOf(session)) {
      const [row] = await session.query<{ max: string | null }>(
        `select max(${quoteIdent(sequence.column)})::text as max from ${quoteIdent(sequence.table)}`,
      );
      const saved = sequences.get(sequence.name);
      const fromBackup = saved ? (saved.called ? saved.last : saved.last - 1n) : 0n;
      const largest = row?.max ? BigInt(row.max) : 0n;
      const value = fromBackup > largest ? fromBackup : largest;
      if (value >= 1n) await session.query("select setval($1::regclass, $2::bigint, true)", [sequence.qualified, value.toString()]);
      else await session.query("select setval($1::regclass, 1, false)", [sequence.qualified]);
    }
    for (const key of foreignKeys) {
      await session.query(`alter table ${key.table} add constraint ${quoteIdent(key.name)} ${key.definition}`);
    }
    await session.query("commit");
    return { tables, rows: total, skipped: [...skip] };
  } catch (error) {
    await session.query("rollback").catch(() => {});
    throw error;
  }
}

function damaged(what: string): BackupFileError {
  return new BackupFileError(`The backup file is damaged (${what}). Nothing was restored.`);
}

/** The statement that inserts a batch of a table's rows (a JSON array) into `table`, its columns checked. */
function insertFor(table: TableShape | undefined, name: string, columns: string[]): string {
  if (!table) throw new Error(`The backup holds a table this version of the app does not have (${name}).`);
  const missing = columns.filter((column) => !table.columns.includes(column));
  if (missing.length > 0) throw new Error(`The backup's table ${name} has columns this version does not have: ${missing.join(", ")}.`);
  const list = columns.map(quoteIdent).join(", ");
  return `insert into ${quoteIdent(name)} (${list}) select ${list} from json_populate_recordset(null::${quoteIdent(name)}, $1::json)`;
}

/**
 * The migrations to create the target with: the backup's own, so its rows fit; the later ones of this build run once
 * the rows are in (they may move data). Refuses a backup of a newer build, or of another line of migrations.
 */
export function migrationsFor(header: BackupHeader): { folder: string; older: boolean; cleanup(): void } {
  const journal = journalOf(migrationsFolder);
  if (header.migrations > journal.length) {
    throw new Error(
      `This backup comes from a newer version of the app (${header.migrations} database migrations; this version has ${journal.length}). Restore it with that version or a later one.`,
    );
  }
  if (header.migrations < 1 || journal[header.migrations - 1]?.when !== header.lastMigration) {
    throw new Error("This backup's database migrations do not match this version of the app's: it was made by another build.");
  }
  if (header.migrations === journal.length) return { folder: migrationsFolder, older: false, cleanup: () => {} };
  // The first migrations only: their files, and the journal cut after the backup's last one.
  const folder = mkdtempSync(path.join(os.tmpdir(), "lumora-migrations-"));
  mkdirSync(path.join(folder, "meta"));
  const entries = journal.slice(0, header.migrations);
  for (const entry of entries) cpSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries }));
  return { folder, older: true, cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Where the backup's vectors can go: the table is made where pgvector is; otherwise they are left out. */
async function prepareVectors(database: Database, header: BackupHeader): Promise<Set<string>> {
  if (!header.tables.includes(EMBEDDINGS)) return new Set();
  try {
    await createVectorExtension(database.db);
    await createEmbeddingsTable(database.db);
    return new Set();
  } catch {
    return new Set([EMBEDDINGS]);
  }
}

/**
 * Creates the schema at the backup's migration (`open`), loads the backup (`session`), then applies this build's later
 * migrations.
 */
async function restoreWith(
  reader: BackupReader,
  migrations: ReturnType<typeof migrationsFor>,
  target: { open(folder?: string): Promise<Database>; session(): Promise<SqlSession> },
): Promise<LoadResult> {
  try {
    const database = await target.open(migrations.folder);
    let skip: Set<string>;
    try {
      skip = await prepareVectors(database, reader.header);
    } finally {
      await database.close();
    }
    const session = await target.session();
    let result: LoadResult;
    try {
      result = await loadBackup(session, reader, { skip });
    } finally {
      await session.close();
    }
    if (migrations.older) await (await target.open()).close();
    return result;
  } finally {
    migrations.cleanup();
  }
}

export interface RestoreResult extends LoadResult {
  /** What the restore did with the backup's app secret, in words for the person running it. */
  secret: string;
}

/**
 * Restores into the embedded database of `dataDir`, which must hold none: into a folder of its own beside it, renamed
 * to `pglite` once whole, so a restore that fails or is stopped never leaves a database that looks complete. The
 * backup's app secret goes to `dataDir/app-secret` (0600), unless APP_SECRET is set (it must then be the same).
 */
export async function restoreIntoDataDir(reader: BackupReader, dataDir: string, options: { appSecret?: string }): Promise<RestoreResult> {
  const root = path.resolve(dataDir);
  const folder = path.join(root, "pglite");
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new Error(
      `${folder} already holds a database. A restore goes into an empty data folder: stop the server, move ${folder} aside (or set DATA_DIR to a new folder), and run the restore again.`,
    );
  }
  const secretFile = path.join(root, "app-secret");
  const secret = checkSecret(reader.header, options.appSecret, secretFile);
  const migrations = migrationsFor(reader.header);
  mkdirSync(root, { recursive: true });
  const work = path.join(root, `pglite.restoring-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  try {
    const result = await restoreWith(reader, migrations, {
      open: (folder) => openDatabase({ pgliteDir: work, migrationsFolder: folder }),
      session: () => pgliteSession(work),
    });
    if (existsSync(folder)) rmSync(folder, { recursive: true });
    renameSync(work, folder);
    if (secret.write) writeFileSync(secretFile, `${secret.write}\n`, { mode: 0o600, flag: "wx" });
    return { ...result, secret: secret.words };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/** What to do with the backup's secret, refused when the place the app reads it from already holds another. */
function checkSecret(header: BackupHeader, configured: string | undefined, file: string): { write?: string; words: string } {
  const saved = header.appSecret;
  if (!saved) {
    return {
      words: `This backup holds no app secret: copy app-secret from the data folder it was made from to ${file} (or set APP_SECRET to it), or the stored provider keys and SMTP password cannot be read.`,
    };
  }
  if (configured !== undefined) {
    if (configured !== saved) {
      throw new Error(
        "APP_SECRET is set to another secret than the one this backup's stored keys were sealed with. Unset APP_SECRET (the restore then writes the backup's secret into the data folder) and run the restore again.",
      );
    }
    return { words: "APP_SECRET is already the backup's secret." };
  }
  if (existsSync(file)) {
    const present = (readFileSafe(file) ?? "").trim();
    if (present !== saved) {
      throw new Error(`${file} holds another app secret than this backup's. Move it aside and run the restore again.`);
    }
    return { words: `${file} already holds the backup's secret.` };
  }
  return { write: saved, words: `The backup's app secret was written to ${file} (readable by you only).` };
}

function readFileSafe(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * Restores into the PostgreSQL database at `url`, which must not be in use (rows only the migrations put there);
 * the whole load is one transaction there.
 */
export async function restoreIntoPostgres(reader: BackupReader, url: string): Promise<LoadResult> {
  const migrations = migrationsFor(reader.header);
  const check = await pgSession(url, "the PostgreSQL database");
  try {
    const used = await tablesInUse(check);
    if (used.length > 0) {
      throw new Error(
        `The PostgreSQL database is already in use (rows in ${used.slice(0, 5).join(", ")}${used.length > 5 ? ", ..." : ""}). Give an empty database: create a new one, or drop this one's tables first.`,
      );
    }
    const applied = await appliedMigrations(check).catch(() => ({ count: 0 }));
    if (applied.count > reader.header.migrations) {
      throw new Error(
        `The PostgreSQL database already has later database migrations (${applied.count}) than the backup (${reader.header.migrations}). Give a new, empty database.`,
      );
    }
  } catch (error) {
    migrations.cleanup();
    throw error;
  } finally {
    await check.close();
  }
  return restoreWith(reader, migrations, {
    open: (folder) => openDatabase({ url, poolSize: 1, migrationsFolder: folder }),
    session: () => pgSession(url, "the PostgreSQL database"),
  });
}
