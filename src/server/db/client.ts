import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { lockPgliteDir } from "./pglite-lock.js";
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
  /** The embedded database's page cache (PostgreSQL's shared_buffers), e.g. "16MB": see PGLITE_MEMORY below. */
  pgliteSharedBuffers?: string;
  poolSize?: number;
}

/**
 * PGlite's memory, sized deliberately (issue 15). Its WebAssembly heap starts at 128 MiB, the least its build
 * declares (`initialMemory` cannot go lower), grows with the work done and never shrinks. Most of it is
 * PostgreSQL's page cache, shared_buffers, 128MB by default: 16MB (`PGLITE_SHARED_BUFFERS`) kept a
 * restarted idle server near 265 MB instead of 415 MB (bench/memory); with the serve script's flags and the
 * collection after start (lib/lean-memory.ts) it is near 180 MB. Raise it for a large database on a
 * machine with memory to spare. Creating a new database (initdb and the migrations) grows the heap by
 * a few hundred MB, and leaves 60 to 80 MB in the process's native heap that closing PGlite does not hand back:
 * a new folder is created by a process of its own (`pglite-create.ts`), and a folder just migrated is closed and
 * opened again before the server starts (bench/memory: 650 MB idle on a new folder at first, about 350 MB with the
 * reopening, 245 to 255 MB with the collection after start, and about 180 MB, as after a restart, with the process).
 */
export const PGLITE_MEMORY = { initialMemory: 128 * 1024 * 1024, sharedBuffers: "16MB" } as const;

/**
 * Opens the database and applies the committed migrations before anything else runs. Each driver is loaded
 * only when used: a server on PostgreSQL never loads PGlite's JavaScript, nor the embedded one pg (issue 15,
 * idle memory).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.pgliteDir, options.pgliteSharedBuffers ?? PGLITE_MEMORY.sharedBuffers);
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import("pg"),
    import("drizzle-orm/node-postgres"),
    import("drizzle-orm/node-postgres/migrator"),
  ]);
  // Several instances may boot at once: an advisory lock makes them migrate one at a time.
  const lockClient = new pg.Client({ connectionString: url });
  await lockClient.connect();
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
    await lockClient.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A dropped idle connection must not take the process down; pg reconnects on next use.
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema });
  return { db, kind: "postgres", close: () => pool.end() };
}

export async function createPglite(dir: string | undefined, sharedBuffers: string) {
  const [{ PGlite }, { pg_trgm }, { vector }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite-pgvector"),
  ]);
  // pg_trgm: the admin searches (migration 0007); PostgreSQL ships it in contrib. vector: pgvector, for the knowledge
  // library's embeddings (issue 30, decision 033); offered here, created by the knowledge module at start.
  return PGlite.create(dir, {
    extensions: { pg_trgm, vector },
    initialMemory: PGLITE_MEMORY.initialMemory,
    postgresqlconf: `shared_buffers=${sharedBuffers}`,
  });
}

/**
 * Creates the new folder `dir` (initdb and the migrations) in a child process, `pglite-create` beside this module:
 * the .ts file through the same loader under tsx, the compiled .js under `npm start`.
 */
async function createPgliteFolder(dir: string, sharedBuffers: string): Promise<void> {
  const fromSource = import.meta.url.endsWith(".ts");
  const script = fileURLToPath(new URL(`./pglite-create.${fromSource ? "ts" : "js"}`, import.meta.url));
  // Under tsx (and Vitest, which has no loader in execArgv) the source runs through tsx, found from the script's folder.
  // The server's own flags, but not a debugger's port, which the server holds.
  const flags = process.execArgv.filter((flag) => !flag.startsWith("--inspect"));
  const nodeArgs = fromSource ? ["--import", "tsx", script] : [...flags, script];
  const child = spawn(process.execPath, [...nodeArgs, path.resolve(dir), sharedBuffers], {
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

/** How many migrations the database has applied (0 before the first). */
async function appliedMigrations(client: PGlite): Promise<number> {
  const result = await client
    .query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations")
    .catch(() => ({ rows: [{ n: 0 }] }));
  return result.rows[0]?.n ?? 0;
}

async function openPglite(dir: string | undefined, sharedBuffers: string): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockPgliteDir(dir) : () => {};
  try {
    const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ]);
    // A new folder (no PG_VERSION yet) is created apart; this process then only opens it.
    if (dir && !existsSync(path.join(dir, "PG_VERSION"))) await createPgliteFolder(dir, sharedBuffers);
    let client = await createPglite(dir, sharedBuffers);
    let db = drizzlePglite(client, { schema });
    const applied = await appliedMigrations(client);
    await migratePglite(db, { migrationsFolder });
    // Creating a database (initdb) and migrating grow PGlite's WebAssembly heap, which never shrinks: a folder
    // just created or migrated is opened again, so the server runs on a heap sized by its own work (issue 15).
    if (dir && (await appliedMigrations(client)) !== applied) {
      await client.close();
      client = await createPglite(dir, sharedBuffers);
      db = drizzlePglite(client, { schema });
    }
    return {
      db: db as unknown as Db,
      kind: "pglite",
      close: async () => {
        if (!client.closed) await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
