/**
 * npm run bench:chat-search
 * One user with 10,000 chats and 1,000,000 messages (12 words each, drawn with a skew so a few
 * words are very common, like real text). Then SEARCHES searches through GET /api/chats/search
 * (session, validation, the query, the snippet), one at a time, for words picked at random
 * from the vocabulary, plus the 10 most common words (the worst case). Reports p50 and p99.
 * BENCH_DB=postgres uses BENCH_DATABASE_URL / TEST_DATABASE_URL (a scratch database is made and dropped);
 * otherwise PGlite in memory. CHATS and MESSAGES change the size. BENCH_REUSE_URL=postgres://.../db keeps
 * a seeded database between runs (seeded on the first), to compare two versions of the query fairly.
 */
import { sql } from "drizzle-orm";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const CHATS = Number(process.env.CHATS ?? 10_000);
const MESSAGES = Number(process.env.MESSAGES ?? 1_000_000);
const SEARCHES = Number(process.env.SEARCHES ?? 200);

/** 3,000 pronounceable made-up words, the same every run. */
function vocabulary(): string[] {
  const a = ["ba", "ko", "mi", "tu", "re", "sa", "lo", "ne", "vi", "da", "po", "ge", "ru", "fa", "zi"];
  const b = ["ran", "lem", "dor", "vik", "sul", "mat", "pen", "gor", "tis", "bal", "nex", "quo", "ril", "sam"];
  const c = ["", "a", "o", "is", "en", "um", "ar", "ix", "on", "el", "us", "ta", "ri", "no", "e"];
  const words: string[] = [];
  for (const x of a) for (const y of b) for (const z of c) if (words.length < 3000) words.push(x + y + z);
  return words;
}

async function main() {
  const usePostgres = process.env.BENCH_DB === "postgres";
  const reuseUrl = process.env.BENCH_REUSE_URL;
  const scratch = usePostgres && !reuseUrl ? await createScratchPostgres() : undefined;
  const url = reuseUrl ?? scratch?.url;
  const database = await openDatabase(url ? { url } : {});
  const app = await buildApp({ config: testConfig(), database, logger: false });
  const { db } = database;
  try {
    const words = vocabulary();
    const seeded = reuseUrl
      ? ((await db.execute(sql`select user_id from chats limit 1`)).rows[0] as { user_id: number } | undefined)
      : undefined;
    const account = newAccount();
    const register = await app.inject({ method: "POST", url: "/api/register", payload: account });
    const cookie = String(register.headers["set-cookie"]).split(";")[0] ?? "";
    if (seeded) {
      // Search as the seeded user: move the fresh session to them.
      await db.execute(sql`update sessions set user_id = ${seeded.user_id} where user_id = ${register.json().id as number}`);
    }
    const userId = seeded?.user_id ?? (register.json().id as number);
    if (!seeded) await seed(userId);
    async function seed(userId: number) {
      const vocab = `{${words.join(",")}}`;
      const started = performance.now();
      await db.execute(sql`
      insert into chats (user_id, title, ai_platform, updated_at)
      select ${userId}::int, 'Chat about ' || (${vocab}::text[])[1 + abs(hashint4(g)) % 3000], 'openai', now() - g * interval '1 minute'
      from generate_series(1, ${CHATS}::int) g`);
      const [first] = (await db.execute(sql`select min(id) as id from chats where user_id = ${userId}`)).rows as { id: number }[];
      // Skewed draw: u^3 puts most picks on the first words of the list (common words), the rest spread thin.
      const batch = 100_000;
      for (let from = 1; from <= MESSAGES; from += batch) {
        await db.execute(sql`
        insert into messages (chat_id, user_id, role, content)
        select ${Number(first?.id)}::int + (g % ${CHATS}::int), ${userId}::int, case when g % 2 = 0 then 'user' else 'assistant' end,
          array_to_string(array(
            select (${vocab}::text[])[1 + floor(3000 * power((abs(hashint4(g * 13 + k)) % 1000000) / 1000000.0, 3::numeric))::int]
            from generate_series(1, 12) k), ' ')
        from generate_series(${from}::int, ${Math.min(MESSAGES, from + batch - 1)}::int) g`);
        process.stdout.write(`\rinserted ${Math.min(MESSAGES, from + batch - 1)} messages`);
      }
      await db.execute(sql`analyze chats`);
      await db.execute(sql`analyze messages`);
      console.log(`\nseeded ${CHATS} chats and ${MESSAGES} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    const search = async (q: string) => {
      const t0 = performance.now();
      const res = await app.inject({ method: "GET", url: `/api/chats/search?q=${encodeURIComponent(q)}`, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`search ${q}: ${res.statusCode} ${res.body}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 10; i++) await search(words[i * 97] ?? "bar");
    const random: number[] = [];
    for (let i = 0; i < SEARCHES; i++) random.push(await search(words[Math.floor(Math.random() * words.length)] ?? ""));
    const common: number[] = [];
    for (let i = 0; i < 10; i++) common.push(await search(words[i] ?? ""));
    const [hits] = (
      await db.execute(sql`select count(*)::int as n from messages where content_search @@ to_tsquery('simple', ${`${words[0]}:*`})`)
    ).rows as { n: number }[];
    const fmt = (n: number) => n.toFixed(1).padStart(7);
    console.log(`database: ${usePostgres ? "PostgreSQL" : "PGlite"}`);
    console.log(`                              p50      p99   (ms per search through the API)`);
    console.log(`random words (${SEARCHES})            ${fmt(percentile(random, 50))}  ${fmt(percentile(random, 99))}`);
    console.log(`10 most common words          ${fmt(percentile(common, 50))}  ${fmt(percentile(common, 99))}`);
    console.log(`(the most common word is in ${hits?.n} messages)`);
  } finally {
    await app.close();
    await database.close();
    await scratch?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
