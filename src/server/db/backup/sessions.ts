import { existsSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite, PGLITE_MEMORY } from "../pglite-engine.js";
import { lockOwner, lockPgliteDir } from "../pglite-lock.js";
import { SOCKET_FILE, socketDirOf } from "../pglite-thread.js";

/**
 * One database session (one connection), where a backup's statements run in order inside one transaction: the
 * embedded database opened in this process, or a pg client (PostgreSQL, or a running server's embedded database
 * through its socket).
 */
export interface SqlSession {
  /** Where it is, for messages: never a password. */
  readonly where: string;
  /** Whether it reaches a running server's embedded database (the backup then holds that server's one session). */
  readonly live: boolean;
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** The socket a running server offers for its embedded database, in a folder inside the database's (decision 073). */
export const pgliteSocketPath = (dir: string) => path.join(socketDirOf(path.resolve(dir)), SOCKET_FILE);

/**
 * The embedded database in `dir` as it is (no migration applied). When a live process holds the folder and offers its
 * socket, through that socket; otherwise the folder is locked and opened here (refused while a live process holds it
 * without a socket: two processes on one folder would corrupt it).
 */
export async function openPgliteSource(dir: string): Promise<SqlSession> {
  const folder = path.resolve(dir);
  if (!existsSync(path.join(folder, "PG_VERSION"))) throw new Error(`There is no embedded database in ${folder}.`);
  if (lockOwner(folder) !== null && existsSync(pgliteSocketPath(folder))) {
    return pgSession(
      { host: socketDirOf(folder), port: 5432, user: "postgres", database: "postgres" },
      `the running server's database in ${folder}`,
      true,
    );
  }
  return pgliteSession(folder);
}

/** The embedded database in `dir`, locked for this process and opened without migrating it. */
export async function pgliteSession(dir: string): Promise<SqlSession> {
  const unlock = lockPgliteDir(dir);
  let client: PGlite;
  try {
    client = await createPglite(dir, PGLITE_MEMORY.sharedBuffers);
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    where: `the embedded database in ${dir}`,
    live: false,
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query<T>(text, params)).rows;
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        unlock();
      }
    },
  };
}

/** A pg client: a PostgreSQL URL, or `{ host: <socket folder>, ... }`. */
export async function pgSession(config: string | import("pg").ClientConfig, where: string, live = false): Promise<SqlSession> {
  const { default: pg } = await import("pg");
  const client = new pg.Client(typeof config === "string" ? { connectionString: config } : config);
  // A dropped connection fails the statement in flight; the error event must not end the process first.
  client.on("error", () => {});
  await client.connect();
  return {
    where,
    live,
    async query<T>(text: string, params?: unknown[]) {
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}
