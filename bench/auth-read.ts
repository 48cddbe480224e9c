/**
 * npm run bench:auth-read [-- --tsx]
 * Requests per second of an authenticated GET /api/user on PGlite and on PostgreSQL,
 * against a bare Fastify hello-world measured in the same run on this machine. The server runs the way
 * `npm start` runs it: compiled (scripts/build-server.ts), with the `serve` script's flags; --tsx runs
 * src/server/main.ts through tsx instead (how this bench ran before issue 15's last session).
 * PostgreSQL comes from BENCH_DATABASE_URL or TEST_DATABASE_URL (a scratch database is made and dropped).
 * Also checks that a revoked session fails at once on the instance that revoked it.
 *
 * Both servers stay up and are measured in ROUNDS alternating rounds (the baseline, then the app, BENCH_SECONDS each),
 * and each database's line reports the median of its rounds' ratios: on a shared 2-core machine the rate of both
 * drifts by ±15% from minute to minute, and a baseline measured a minute before the app once swung one run's ratio
 * from 49% to 65%. Each round's ratio is printed too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { buildCompiledServer, cookieFetch, freePort, spawnServer } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { median } from "./stats.js";

const { values: args } = parseArgs({ options: { tsx: { type: "boolean", default: false } } });
const serverArgs = args.tsx ? undefined : buildCompiledServer("auth-read");

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Issue 28: the ratio must hold with few clients and with many, so both are measured (BENCH_CONNECTIONS=10,50). */
const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? "10,50").split(",").map(Number);

async function measure(url: string, connections: number, headers: Record<string, string> = {}): Promise<number> {
  // A short warm-up lets the JIT and the connection pool settle before the counted run.
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return Math.round(result.requests.average);
}

/** The bare Fastify baseline, started once and measured in every round. */
async function startHelloWorld(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/hello-world.ts"], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop: () => child.kill("SIGTERM") };
}

/** The app on one database, measured round by round against the baseline; the session is revoked at the end. */
async function authRead(hello: string, env: Record<string, string>) {
  const server = await spawnServer({ LOG_LEVEL: "warn", ...env }, serverArgs);
  try {
    const client = cookieFetch();
    const id = Date.now().toString(36);
    const account = {
      username: `bench${id}`,
      name: "Bench Mark",
      email: `bench${id}@example.com`,
      password: "Str0ng!pass",
      planType: "free",
    };
    const registered = await client.call(`${server.url}/api/register`, { method: "POST", body: account });
    if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
    const byConnections = new Map<number, { hello: number; app: number; ratio: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const connections of CONNECTION_COUNTS) {
        const helloRps = await measure(hello, connections);
        const appRps = await measure(`${server.url}/api/user`, connections, { cookie: client.cookie });
        const rounds = byConnections.get(connections) ?? [];
        rounds.push({ hello: helloRps, app: appRps, ratio: appRps / helloRps });
        byConnections.set(connections, rounds);
      }
    }
    // Revocation must not wait for any cache: log out, then the same cookie is refused at once.
    const cookie = client.cookie;
    await client.call(`${server.url}/api/logout`, { method: "POST" });
    const replay = await fetch(`${server.url}/api/user`, { headers: { cookie } });
    const results = [...byConnections].map(([connections, rounds]) => ({ connections, rounds, ratio: median(rounds.map((r) => r.ratio)) }));
    return { results, revokedStatus: replay.status };
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

function report(name: string, result: Awaited<ReturnType<typeof authRead>>) {
  for (const { connections, rounds, ratio } of result.results) {
    const each = rounds.map((r) => `${r.app}/${r.hello} = ${(r.ratio * 100).toFixed(0)}%`).join(", ");
    console.log(
      `GET /api/user, ${name}, ${connections} connections: ${(ratio * 100).toFixed(0)}% of hello-world (median of ${ROUNDS} rounds: ${each})`,
    );
  }
  console.log(`${name}: revoked session -> ${result.revokedStatus}`);
}

const hello = await startHelloWorld();
try {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-pglite-"));
  try {
    report("PGlite", await authRead(hello.url, { DATA_DIR: dataDir }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    process.env.TEST_DATABASE_URL = pgUrl;
    const scratch = await createScratchPostgres();
    try {
      report("PostgreSQL", await authRead(hello.url, { DATABASE_URL: scratch.url }));
    } finally {
      await scratch.drop();
    }
  } else {
    console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
  }
} finally {
  hello.stop();
}
console.log(
  `(${CONNECTION_COUNTS.join(" and ")} connections, ${DURATION_S} s per measure after 2 s of warm-up, on ${process.version}; the server ${args.tsx ? "through tsx" : "compiled, with the serve script's flags"})`,
);
