import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { PGLITE_MEMORY } from "./pglite-engine.js";
import { lockPgliteDir } from "./pglite-lock.js";
import { startPgliteThread } from "./pglite-thread.js";
import * as schema from "./schema/index.js";

/** Both drivers expose the same Drizzle query builder; the services only see this type. */
export type Db = NodePgDatabase<typeof schema>;
/** A transaction, as `db.transaction()` hands it to its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a query helper takes when it runs inside a transaction or outside one. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, "migrations");
// Any constant works; it only has to be the same for every instance of the app.
const MIGRATION_LOCK_ID = 727_001;

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder of the embedded database; absent means in memory (tests). */
  pgliteDir?: string;
  /** The embedded database's page cache (PostgreSQL's shared_buffers), e.g. "16MB": see PGLITE_MEMORY in pglite-engine.ts. */
  pgliteSharedBuffers?: string;
  /** In memory only: start from this tarball of a migrated data folder (the tests, tests/helpers/test-database.ts). */
  pgliteTemplate?: string;
  poolSize?: number;
  /** The migrations to apply (default: all of this build's); a restore of an older backup names the first ones only. */
  migrationsFolder?: string;
}

/**
 * Opens the database and applies the committed migrations before anything else runs. Each driver is loaded
 * only when used: a server on PostgreSQL never loads PGlite's JavaScript, nor the embedded one pg (issue 15,
 * idle memory).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const migrations = options.migrationsFolder ?? migrationsFolder;
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10, migrations);
  return openPglite(options.pgliteDir, options.pgliteSharedBuffers ?? PGLITE_MEMORY.sharedBuffers, migrations, options.pgliteTemplate);
}

/** Where `pg` connects: a PostgreSQL URL, or the embedded database's socket folder (pglite-thread.ts). */
type Connection = { connectionString: string } | { host: string; port: number; user: string; database: string };

/**
 * The one database path (decision 073): PostgreSQL and the embedded database are both reached with `pg` and Drizzle's
 * node-postgres driver, and migrated the same way.
 */
async function openPg(
  connection: Connection,
  poolSize: number,
  migrations: string,
  pool: { keepIdle?: boolean } = {},
): Promise<{ db: Db & { $client: import("pg").Pool }; migrated: boolean }> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  // Several instances may boot at once: an advisory lock makes them migrate one at a time.
  const lockClient = new pg.Client(connection);
  await lockClient.connect();
  // How many migrations the database has applied (0 before the first): did this start apply any?
  const applied = async () =>
    (
      await lockClient
        .query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")
        .catch(() => ({ rows: [{ n: 0 }] }))
    ).rows[0]?.n ?? 0;
  let migrated: boolean;
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    const before = await applied();
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder: migrations });
    migrated = (await applied()) !== before;
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await lockClient.end();
  }
  const clients = new pg.Pool({ ...connection, max: poolSize, ...(pool.keepIdle ? { idleTimeoutMillis: 0 } : {}) });
  // A dropped idle connection must not take the process down; pg reconnects on next use.
  clients.on("error", () => {});
  return { db: drizzlePg(clients, { schema }), migrated };
}

async function openPostgres(url: string, poolSize: number, migrations: string): Promise<Database> {
  const { db } = await openPg({ connectionString: url }, poolSize, migrations);
  return { db, kind: "postgres", close: () => db.$client.end() };
}

/**
 * Creates the new folder `dir` (initdb and the migrations) in a child process, `pglite-create` beside this module:
 * the .ts file through the same loader under tsx, the compiled .js under `npm start`.
 */
async function createPgliteFolder(dir: string, sharedBuffers: string, migrations: string): Promise<void> {
  const fromSource = import.meta.url.endsWith(".ts");
  const script = fileURLToPath(new URL(`./pglite-create.${fromSource ? "ts" : "js"}`, import.meta.url));
  // Under tsx (and Vitest, which has no loader in execArgv) the source runs through tsx, found from the script's folder.
  // The server's own flags, but not a debugger's port, which the server holds.
  const flags = process.execArgv.filter((flag) => !flag.startsWith("--inspect"));
  const nodeArgs = fromSource ? ["--import", "tsx", script] : [...flags, script];
  const child = spawn(process.execPath, [...nodeArgs, path.resolve(dir), sharedBuffers, migrations], {
    cwd: path.dirname(script),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk) => {
    errors += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`Creating the embedded database in ${dir} failed (exit code ${code}): ${errors.trim().slice(-2000)}`);
}

/**
 * The embedded database on a thread of its own, behind the PostgreSQL protocol on a Unix socket (decision 073). One
 * connection: the embedded database is one session, so a second connection would only wait for the first, and a
 * named prepared statement is the session's, not the connection's.
 */
async function openPglite(dir: string | undefined, sharedBuffers: string, migrations: string, template?: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockPgliteDir(dir) : () => {};
  const open = async () => {
    const thread = await startPgliteThread(dir, sharedBuffers, template);
    try {
      const connection = { host: thread.socketDir, port: 5432, user: "postgres", database: "postgres" };
      // Kept while idle: a new connection would prepare again what the session already holds.
      return { thread, ...(await openPg(connection, 1, migrations, { keepIdle: true })) };
    } catch (error) {
      await thread.close();
      throw error;
    }
  };
  try {
    // A new folder (no PG_VERSION yet) is created apart; this process then only opens it.
    if (dir && !existsSync(path.join(dir, "PG_VERSION"))) await createPgliteFolder(dir, sharedBuffers, migrations);
    let opened = await open();
    // Creating a database (initdb) and migrating grow PGlite's WebAssembly heap, which never shrinks: a folder
    // just created or migrated is opened again, so the server runs on a heap sized by its own work (issue 15).
    if (dir && opened.migrated) {
      await opened.db.$client.end();
      await opened.thread.close();
      opened = await open();
    }
    const { thread, db } = opened;
    return {
      db,
      kind: "pglite",
      close: async () => {
        await db.$client.end();
        await thread.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
