import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../../src/server/db/client.js";

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

export async function openTestDatabase(): Promise<Database> {
  if (!usingPostgres()) return openDatabase({});
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
