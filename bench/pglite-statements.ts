/**
 * npm run bench:pglite-statements
 * The floor PGlite sets under a reply's start (issue 15's instant target, ≤ 3 ms added p50): the statements a
 * reply runs before its first piece may be relayed, sent bare through Drizzle on a PGlite folder with the app's
 * migrations, one after the other as PGlite's one connection runs them, with the `serve` script's V8 flags
 * (the npm script passes them): `select 1` (PGlite's cost per statement), the AI slot, the leaf shown, then
 * `start_reply` (the claim, the checks and the three writes with their commit). ROUNDS rounds, back to back and
 * after a 200 ms pause (as bench:stream-overhead's replies come), with no HTTP, provider or app code around them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { CookieClient, newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { percentile } from "./stats.js";

const ROUNDS = Number(process.env.ROUNDS ?? 100);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-pglite-statements-"));
  const database = await openDatabase({ pgliteDir: dir });
  const app = await buildApp({ config: testConfig(), database, logger: false });
  try {
    await app.ready();
    const client = new CookieClient(app);
    const registered = await client.post("/api/register", newAccount());
    const userId = (registered.json() as { id: number }).id;
    const { db } = database;
    for (const pause of [0, 200]) {
      const times: Record<string, number[]> = { "select 1": [], "AI slot": [], "leaf shown": [], start_reply: [], "all four": [] };
      for (let i = 0; i < ROUNDS + 10; i++) {
        const chat = (await client.post("/api/chats", {})).json() as { id: number };
        if (pause) await sleep(pause);
        const marks = [performance.now()];
        await db.execute(sql`select 1`);
        marks.push(performance.now());
        await db.execute(sql`select * from ai_slot_verdict(${userId}, 3)`);
        marks.push(performance.now());
        await db.execute(sql`select chat_shown_leaf(${chat.id}, null)`);
        marks.push(performance.now());
        const started = await db.execute(
          sql`select start_reply(${userId}, ${chat.id}, 3::int, true, null::int, null::int, ${`hello ${i}`}::text, '[]'::jsonb,
            'openai'::text, 'gpt-4o-mini'::text, null::text, 'bench'::text, 'Bench'::text, 1100::int, 10::int) as started`,
        );
        marks.push(performance.now());
        const { verdict, hold } = (started.rows[0] as { started: { verdict: string; hold: number } }).started;
        if (verdict !== "ok") throw new Error(`start_reply refused: ${verdict}`);
        // The reply ends (its hold settled), so the next round's claim finds no reply running and nothing held.
        await db.execute(sql`update messages set status = 'complete' where chat_id = ${chat.id} and status = 'streaming'`);
        await db.execute(sql`select settle_ai_hold(${hold}, 0)`);
        if (i < 10) continue;
        Object.values(times).forEach((list, k) => {
          list.push(k < 4 ? (marks[k + 1] ?? 0) - (marks[k] ?? 0) : (marks[4] ?? 0) - (marks[0] ?? 0));
        });
      }
      console.log(`\nPGlite, ${pause ? `after a ${pause} ms pause` : "back to back"}, ${ROUNDS} rounds (after 10 warm-up)`);
      console.log("                p50      p99   (ms)");
      for (const [name, list] of Object.entries(times)) {
        console.log(`${name.padEnd(12)} ${percentile(list, 50).toFixed(3).padStart(7)}  ${percentile(list, 99).toFixed(3).padStart(7)}`);
      }
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
