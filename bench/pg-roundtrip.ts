/**
 * npm run bench:pg-roundtrip
 * What one statement costs this machine's PostgreSQL from a bare `pg` client, with no app around it: `select 1`,
 * `begin`, an insert and `commit`, p50 and p90, first back to back (300 rounds), then with a pause before each
 * round (120 rounds of PAUSE_MS, 200 unless set), as a reply in bench/stream-overhead comes after one. The
 * floor under a reply's transaction (decision 023). A scratch database on BENCH_DATABASE_URL or
 * TEST_DATABASE_URL's server is made and dropped.
 */
import pg from "pg";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const PAUSE_MS = Number(process.env.PAUSE_MS ?? 200);
const STATEMENTS = ["select 1", "begin", "insert", "commit"] as const;

async function rounds(client: pg.Client, count: number, pauseMs: number): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(STATEMENTS.map((name) => [name, []]));
  const timed = async (name: (typeof STATEMENTS)[number], run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    times[name]?.push(performance.now() - started);
  };
  for (let i = 0; i < count; i++) {
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    await timed("select 1", () => client.query("select 1"));
    await timed("begin", () => client.query("begin"));
    await timed("insert", () => client.query("insert into probe (v) values ($1)", ["x"]));
    await timed("commit", () => client.query("commit"));
  }
  return times;
}

function report(title: string, times: Record<string, number[]>) {
  console.log(title);
  for (const [name, values] of Object.entries(times)) {
    console.log(`  ${name.padEnd(9)} p50 ${percentile(values, 50).toFixed(3)} ms   p90 ${percentile(values, 90).toFixed(3)} ms`);
  }
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!pgUrl) throw new Error("set BENCH_DATABASE_URL or TEST_DATABASE_URL");
process.env.TEST_DATABASE_URL = pgUrl;
const scratch = await createScratchPostgres();
const client = new pg.Client({ connectionString: scratch.url });
try {
  await client.connect();
  await client.query("create table probe (id serial primary key, v text)");
  report("back to back (300 rounds)", await rounds(client, 300, 0));
  report(`after a ${PAUSE_MS} ms pause each (120 rounds)`, await rounds(client, 120, PAUSE_MS));
  const settings = await client.query(
    "select name, setting from pg_settings where name in ('synchronous_commit', 'fsync', 'wal_sync_method')",
  );
  console.log(settings.rows.map((row: { name: string; setting: string }) => `${row.name}=${row.setting}`).join(", "));
} finally {
  await client.end();
  await scratch.drop();
}
