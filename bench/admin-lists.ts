/**
 * npm run bench:admin-lists
 * The admin lists at scale, on PostgreSQL: 100,000 users and 1,000,000 activity rows (seeded in SQL with
 * generate_series), the real server started as its own process, signed in as the admin. Reports p50 and p99 of
 *   - a filtered users page:    GET /api/admin/users?search=...&status=active&limit=50
 *   - a filtered activity page: GET /api/admin/user-activity-logs?search=...&action=login&date=last30days&limit=50
 * (target p50 <= 30 ms), then the time to export all 1,000,000 rows as CSV and the server's memory meanwhile
 * (VmRSS sampled every 50 ms, and VmHWM, the peak since start).
 * BENCH_DATABASE_URL or TEST_DATABASE_URL: a server where a scratch database is created and dropped.
 * USERS, LOGS and REQUESTS change the size.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { openDatabase } from "../src/server/db/client.js";
import { spawnServer } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const USERS = Number(process.env.USERS ?? 100_000);
const LOGS = Number(process.env.LOGS ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** kB of a /proc/<pid>/status line (VmRSS: now, VmHWM: the peak). */
function memoryKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? Number.NaN);
}

async function seed(client: pg.Client, adminId: number) {
  const started = performance.now();
  // Users: user<n>, user<n>@<one of 5 domains>, "<First> <Last>"; one in ten inactive.
  await client.query(
    `insert into users (username, email, name, password_hash, status, created_at)
     select 'user' || g, 'user' || g || '@' || (array['northwind.example','contoso.example','fabrikam.example','example.org','mail.example'])[1 + g % 5],
            (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','Ken','Radia','Tim'])[1 + g % 10] || ' ' ||
            (array['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Thompson','Perlman','Berners-Lee'])[1 + (g / 10) % 10],
            'not-a-hash', case when g % 10 = 0 then 'inactive' else 'active' end, now() - (g % 900) * interval '1 day'
     from generate_series(1, $1::int) g`,
    [USERS],
  );
  const { rows } = await client.query<{ min: number; max: number }>(`select min(id), max(id) from users where id <> $1`, [adminId]);
  const first = Number(rows[0]?.min);
  const span = Number(rows[0]?.max) - first + 1;
  console.log(`seeded ${USERS.toLocaleString()} users in ${seconds(started)} s`);
  // Activity: ids grow with time over the last 90 days; 40% login, 30% logout, 15% failed login (a third of them
  // for unknown names), the rest the other actions. IPs from 10.x and 192.168.x, five user agents.
  const batch = 250_000;
  for (let from = 1; from <= LOGS; from += batch) {
    const to = Math.min(LOGS, from + batch - 1);
    await client.query(
      `insert into user_activity_logs (user_id, action, ip_address, user_agent, attempted_username, created_at)
       select case when k >= 85 and k < 90 then null else $1::int + abs(hashint4(g)) % $2::int end,
              case when k < 40 then 'login' when k < 70 then 'logout' when k < 85 then 'failed_login' when k < 90 then 'failed_login'
                   when k < 93 then 'register' when k < 96 then 'password_change' when k < 98 then 'plan_change' else 'account_disabled' end,
              case when g % 3 = 0 then '192.168.' || (g / 7) % 256 || '.' || g % 256 else '10.' || (g / 11) % 256 || '.' || (g / 3) % 256 || '.' || g % 256 end,
              (array['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0','Mozilla/5.0 (Macintosh) Safari/17.4',
                     'Mozilla/5.0 (X11; Linux x86_64) Firefox/127.0','Mozilla/5.0 (iPhone) Mobile Safari/604.1','curl/8.5.0'])[1 + g % 5],
              case when k >= 85 and k < 90 then 'guess' || (g % 5000) else null end,
              now() - ($3::int - g) * (interval '90 days' / $3::int)
       from (select g, abs(hashint4(g * 31 + 7)) % 100 as k from generate_series($4::int, $5::int) g) s`,
      [first, span, LOGS, from, to],
    );
    process.stdout.write(`\rinserted ${to.toLocaleString()} activity rows`);
  }
  await client.query("analyze users");
  await client.query("analyze user_activity_logs");
  console.log(`\nseeded ${LOGS.toLocaleString()} activity rows in ${seconds(started)} s`);
}

async function main() {
  const benchUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!benchUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (postgres://...): this bench runs on PostgreSQL only");
  process.env.TEST_DATABASE_URL = benchUrl;
  const scratch = await createScratchPostgres();
  let server: Awaited<ReturnType<typeof spawnServer>> | undefined;
  const client = new pg.Client({ connectionString: scratch.url });
  try {
    // Migrate first (as the server would), then start it and register the first account: the admin.
    await (await openDatabase({ url: scratch.url, poolSize: 1 })).close();
    server = await spawnServer({ DATABASE_URL: scratch.url, LOG_LEVEL: "warn", DATABASE_POOL_SIZE: "10" });
    const pid = server.child.pid as number;
    const base = server.url;
    const register = await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        username: "benchadmin",
        name: "Bench Admin",
        email: "bench@admin.example",
        password: "Str0ng!pass",
        planType: "free",
      }),
    });
    if (register.status !== 201) throw new Error(`register: ${register.status} ${await register.text()}`);
    const admin = (await register.json()) as { id: number; role: string };
    if (admin.role !== "admin") throw new Error("the first account should be the admin");
    const cookie = (register.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

    await client.connect();
    await seed(client, admin.id);

    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { cookie } });
      const body = await res.text();
      return { ms: performance.now() - t0, status: res.status, body };
    };
    const terms = () => {
      const n = 1 + Math.floor(Math.random() * USERS);
      // Alternately a username fragment (user4242 also matches user42420..42429), a name and an IP fragment.
      return [`user${n}`, ["lovelace", "hopper", "turing"][n % 3] ?? "ada", `10.${n % 256}.`][n % 3] ?? `user${n}`;
    };
    async function run(label: string, path: (term: string) => string) {
      const probe = await get(path("user1"));
      if (probe.status === 404) return { label, skipped: "endpoint not there yet (404)" };
      if (probe.status !== 200) throw new Error(`${label}: ${probe.status} ${probe.body.slice(0, 200)}`);
      for (let i = 0; i < 10; i++) await get(path(terms()));
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const res = await get(path(terms()));
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${res.body.slice(0, 200)}`);
        rows += (JSON.parse(res.body) as unknown[]).length;
        times.push(res.ms);
      }
      return { label, p50: percentile(times, 50), p99: percentile(times, 99), rows: rows / REQUESTS };
    }
    const results = [
      await run("users page", (q) => `/api/admin/users?search=${encodeURIComponent(q)}&status=active&limit=50`),
      await run(
        "activity page",
        (q) => `/api/admin/user-activity-logs?search=${encodeURIComponent(q)}&action=login&date=last30days&limit=50`,
      ),
      // Without an action the search also reads failed logins of unknown accounts (their typed name has no index).
      await run("activity, search only", (q) => `/api/admin/user-activity-logs?search=${encodeURIComponent(q)}&limit=50`),
      await run("activity, no filter", () => "/api/admin/user-activity-logs?limit=50"),
    ];

    // The export: the whole log, read as it streams, with the server's memory sampled meanwhile.
    const rssBefore = memoryKb(pid, "VmRSS");
    let peakRss = rssBefore;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, memoryKb(pid, "VmRSS"));
    }, 50);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/admin/user-activity-logs/export`, { headers: { cookie } });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const exportSeconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const hwm = memoryKb(pid, "VmHWM");

    const fmt = (n: number) => n.toFixed(1).padStart(8);
    console.log(`\nPostgreSQL, ${USERS.toLocaleString()} users, ${LOGS.toLocaleString()} activity rows, ${REQUESTS} requests each`);
    console.log(`${"".padEnd(24)}     p50      p99   rows/page   (ms, through HTTP)`);
    for (const r of results) {
      if ("skipped" in r) console.log(`${r.label.padEnd(24)} skipped: ${r.skipped}`);
      else console.log(`${r.label.padEnd(24)}${fmt(r.p50)} ${fmt(r.p99)}   ${r.rows.toFixed(1).padStart(9)}`);
    }
    console.log(
      `CSV export               ${exportSeconds.toFixed(1)} s, ${(lines - 1).toLocaleString()} rows, ${(bytes / 1024 / 1024).toFixed(0)} MB`,
    );
    console.log(
      `server memory            RSS ${(rssBefore / 1024).toFixed(0)} MB before, ${(peakRss / 1024).toFixed(0)} MB peak during the export (VmHWM ${(hwm / 1024).toFixed(0)} MB)`,
    );
  } finally {
    await client.end().catch(() => {});
    if (server) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
