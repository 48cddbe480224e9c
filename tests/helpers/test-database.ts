import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type Database, migrationsFolder, openDatabase } from "../../src/server/db/client.js";
import { createPglite, PGLITE_MEMORY } from "../../src/server/db/pglite-engine.js";

/**
 * API tests run on PGlite (in memory) by default and on PostgreSQL when
 * TEST_DB=postgres: then each test file gets a database of its own, dropped at the end.
 */
export function usingPostgres(): boolean {
  return process.env.TEST_DB === "postgres";
}

export function postgresAdminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
  return url;
}

export async function createScratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = postgresAdminUrl();
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

const root = path.resolve(import.meta.dirname, "../..");

/**
 * A migrated empty embedded database as a tarball, made once per set of migrations and engine version and kept in
 * node_modules/.cache: each test file's database starts from it instead of running initdb and every migration
 * again (seconds of CPU a file). The migrations still run at open, and find nothing left to do.
 */
export async function pgliteTemplate(): Promise<string> {
  const hash = createHash("sha256");
  for (const pkg of ["@electric-sql/pglite", "@electric-sql/pglite-pgvector"]) {
    hash.update(readFileSync(path.join(root, "node_modules", pkg, "package.json")));
  }
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(path.join(folder, entry.name)) : [path.join(folder, entry.name)],
    );
  for (const file of files(migrationsFolder).sort()) hash.update(file).update(readFileSync(file));
  const folder = path.join(root, "node_modules", ".cache", "lumora-test-db");
  const file = path.join(folder, `${hash.digest("hex").slice(0, 16)}.tar.gz`);
  if (existsSync(file)) return file;
  const [{ drizzle }, { migrate }] = await Promise.all([import("drizzle-orm/pglite"), import("drizzle-orm/pglite/migrator")]);
  const client = await createPglite(undefined, PGLITE_MEMORY.sharedBuffers);
  try {
    await migrate(drizzle(client), { migrationsFolder });
    const tarball = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    mkdirSync(folder, { recursive: true });
    // Written apart and renamed: another test worker making the same one at the same time never reads half of it.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(partial, tarball);
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

export async function openTestDatabase(): Promise<Database> {
  if (!usingPostgres()) return openDatabase({ pgliteTemplate: await pgliteTemplate() });
  const scratch = await createScratchPostgres();
  const database = await openDatabase({ url: scratch.url, poolSize: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
