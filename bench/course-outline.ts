/**
 * npm run bench:course-outline
 * A course of 50 modules x 20 lessons (each lesson ~2 KB of markdown, which the outline must
 * not carry); p50 and p99 of GET /api/courses/{id}/outline through the route (session, checks,
 * queries, serialisation), REQUESTS times one after another, and the number of SQL queries one
 * request runs, counted at the database driver. PGlite in memory, then PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a scratch database is made and dropped).
 */
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const MODULES = 50;
const LESSONS = 20;
const REQUESTS = Number(process.env.REQUESTS ?? 300);

// Every query of either driver passes through one of these: count them.
let queries = 0;
// (pg.Pool.query hands each query to a pg.Client, so the pool is not counted twice.)
for (const proto of [pg.Client.prototype, PGlite.prototype] as { query: (...args: unknown[]) => unknown }[]) {
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    queries += 1;
    return original.apply(this, args);
  };
}

async function measure(label: string, url?: string) {
  const database = await openDatabase(url ? { url, poolSize: 5 } : {});
  const app = await buildApp({ config: testConfig(), database, logger: false });
  try {
    const register = await app.inject({ method: "POST", url: "/api/register", payload: newAccount() });
    const cookie = String(register.headers["set-cookie"]).split(";")[0] ?? "";
    const userId = register.json().id as number;
    const body = "Some lesson text with an example.\n\n".repeat(60);
    const [course] = (await database.db.execute(sql`insert into courses (user_id, title) values (${userId}, 'Big course') returning id`))
      .rows as { id: number }[];
    const courseId = Number(course?.id);
    await database.db.execute(
      sql`insert into course_modules (course_id, title, "order") select ${courseId}, 'Module ' || g, g from generate_series(1, ${MODULES}::int) g`,
    );
    await database.db.execute(sql`
      insert into lessons (module_id, course_id, title, type, content, "order")
      select m.id, ${courseId}, 'Lesson ' || g, 'reading', ${body}, g from course_modules m, generate_series(1, ${LESSONS}::int) g where m.course_id = ${courseId}`);
    const get = () => app.inject({ method: "GET", url: `/api/courses/${courseId}/outline`, headers: { cookie } });
    for (let i = 0; i < 20; i++) await get();
    queries = 0;
    const one = await get();
    const perRequest = queries;
    const outline = one.json() as { modules: { lessons: unknown[] }[] };
    const lessonCount = outline.modules.reduce((n, m) => n + m.lessons.length, 0);
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const res = await get();
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`outline: ${res.statusCode}`);
    }
    console.log(
      `${label.padEnd(11)} ${MODULES} modules, ${lessonCount} lessons, ${(one.body.length / 1024).toFixed(0)} KiB JSON: ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, ${perRequest} SQL queries per request`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}

async function main() {
  await measure("PGlite");
  if (process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchPostgres();
    try {
      await measure("PostgreSQL", scratch.url);
    } finally {
      await scratch.drop();
    }
  } else console.log("PostgreSQL: skipped (set TEST_DATABASE_URL)");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
