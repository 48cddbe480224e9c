/**
 * npx tsx bench/sidebar-explain.ts (BENCH_DB=postgres for a scratch PostgreSQL): seeds the sidebar bench's
 * 10,000 chats in 200 folders (seed-many-chats.ts) and times the sidebar's three first reads, each alone, with EXPLAIN ANALYZE of
 * their queries (to check they are indexed).
 */
import { sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { seedManyChats } from "./seed-many-chats.js";

const scratch = process.env.BENCH_DB === "postgres" ? await createScratchPostgres() : undefined;
const database = await openDatabase(scratch ? { url: scratch.url } : {});
const app = await buildApp({ config: testConfig({}), database, logger: false });
try {
  const account = newAccount();
  const register = await app.inject({ method: "POST", url: "/api/register", payload: account });
  const userId = (register.json() as { id: number }).id;
  const cookie = String(register.headers["set-cookie"]).split(";")[0] ?? "";
  const { db } = database;
  await seedManyChats(database, userId);
  const urls = ["/api/chats?limit=100&pinned=true", "/api/chat-folders", "/api/chats?limit=100&folderId=none&pinned=false"];
  for (let round = 0; round < 3; round++) {
    const times: string[] = [];
    for (const url of urls) {
      const started = performance.now();
      const res = await app.inject({ method: "GET", url, headers: { cookie } });
      times.push(`${url} ${res.statusCode} ${(performance.now() - started).toFixed(1)} ms`);
    }
    console.log(times.join("\n"), "\n");
  }
  const explain = async (label: string, query: ReturnType<typeof sql>) => {
    const result = await db.execute(sql`explain (analyze, buffers off) ${query}`);
    console.log(`-- ${label}\n${(result.rows as { "QUERY PLAN": string }[]).map((r) => r["QUERY PLAN"]).join("\n")}\n`);
  };
  const listed = sql`not c.temporary and exists (select 1 from messages m where m.chat_id = c.id)`;
  await explain(
    "pinned",
    sql`select c.id from chats c where c.user_id = ${userId} and ${listed} and c.pinned_at is not null order by c.pinned_at desc, c.id desc limit 101`,
  );
  await explain(
    "unfiled",
    sql`select c.id from chats c where c.user_id = ${userId} and ${listed} and c.folder_id is null and c.pinned_at is null order by c.updated_at desc, c.id desc limit 101`,
  );
  await explain(
    "folders",
    sql`select f.id, (select count(*)::int from chats c where c.user_id = f.user_id and c.folder_id = f.id and ${listed}) from chat_folders f where f.user_id = ${userId} order by lower(f.name), f.id limit 500`,
  );
} finally {
  await app.close();
  await database.close();
  await scratch?.drop();
}
