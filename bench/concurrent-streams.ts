/**
 * npm run bench:concurrent-streams [-- --setup one|two|both]
 * Load held (issue 28): STREAMS replies (1,000 unless set) opened at once, one per user, each streaming for
 * STREAM_SECONDS (20) from an OpenAI-compatible stand-in (tests/fakes, reached through the app's real provider
 * client: the seeded OpenAI platform pointed at it), against one instance of the app on PostgreSQL; then twice
 * as many against two instances (Redis linked) behind a plain round-robin proxy (bench/round-robin-proxy.ts).
 * The servers run the way `npm start` runs them (compiled, the `serve` script's flags), each in its own process
 * with bench/event-loop-probe.ts preloaded, which reports its event-loop delay over IPC.
 *
 * Measured while the replies run:
 *   added first token  per reply, its time to first token at the client minus the stand-in's own (from the
 *                      request's arrival at the stand-in to its first chunk), as bench:stream-overhead defines it;
 *                      split into the time before the stand-in is asked and the time after its first chunk
 *   GET /api/user      a signed-in read every 100 ms, its latency
 *   event-loop delay   of each server (the probe), of this process (the client), of the stand-in and of the proxy
 *                      (each in a process of its own: this file again, with --role)
 *   RSS, CPU           of each server, from /proc (RSS every 250 ms: its peak)
 *   errors             any answer but 200, any stream that does not end with its `done` event and a complete reply
 *                      within STREAM_SECONDS + 60 s
 *   database           connections of the scratch database in use (pg_stat_activity), against the pools' size
 *   listen queue       connections the machine's full listen queues turned away meanwhile (ListenOverflows)
 * Targets (issue 28) on one instance: 0 errors, added first token p99 ≤ 50 ms, GET /api/user p99 ≤ 100 ms,
 * RSS ≤ 500 MB; two instances hold twice as many.
 *
 * Users, sessions and plan allowances are set up around the app's limits, never through them: users and their
 * sessions are rows written straight into the scratch database (registration is throttled per address), both
 * plans' allowances are unlimited (the admin API), and each user runs one reply (AI_MAX_CONCURRENT_PER_USER is 3).
 * Each instance writes one reply first (its provider SDK loads then); the load starts 6 s after the setup, once
 * the sessions it looked up have left the servers' 5-second cache.
 *
 * --cpu-prof DIR writes each server's CPU profile into DIR (sum it with bench/cpu-profile-summary.ts).
 * Env: STREAMS (per instance), STREAM_SECONDS, CHUNK_MS (200: a chunk of three words every 200 ms),
 * FIRST_TOKEN_MS (the stand-in's own time to first token, 200), RAMP_SECONDS (0: every request is sent in the
 * same turn of the loop; else they are spread evenly over that time), DATABASE_POOL_SIZE (the app's, 10),
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres: a scratch database is created on
 * that server and dropped), TEST_REDIS_URL (default redis://127.0.0.1:6379/0), BENCH_STRICT=1 to fail on a
 * missed target.
 * Everything talks to 127.0.0.1 only.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { hashPassword } from "../src/server/lib/passwords.js";
import { sha256Hex } from "../src/server/lib/sha256.js";
import { type ChatTurn, lastUserText } from "../tests/fakes/fake-behaviour.js";
import { startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { adminWithOpenAiAt, freePort, serveScriptArgs } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { startRoundRobinProxy } from "./round-robin-proxy.js";
import { cpuSeconds, percentile } from "./stats.js";

const { values: args } = parseArgs({
  options: {
    setup: { type: "string", default: "both" },
    "cpu-prof": { type: "string" },
    // Internal: this file run again as the stand-in's or the proxy's own process.
    role: { type: "string" },
    backend: { type: "string", multiple: true },
  },
});
const root = path.resolve(import.meta.dirname, "..");

process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379/0";
const STREAMS = Number(process.env.STREAMS ?? 1000);
const STREAM_MS = Number(process.env.STREAM_SECONDS ?? 20) * 1000;
const CHUNK_MS = Number(process.env.CHUNK_MS ?? 200);
const FIRST_TOKEN_MS = Number(process.env.FIRST_TOKEN_MS ?? 200);
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);
/** A stream not ended this long after its start counts as an error (and is cut). */
const STREAM_DEADLINE_MS = STREAM_MS + 60_000;
const USER_READ_EVERY_MS = 100;
const RAMP_MS = Number(process.env.RAMP_SECONDS ?? 0) * 1000;

const TARGETS = { errors: 0, addedP99: 50, userReadP99: 100, rssMb: 500 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds since the epoch, to the microsecond: comparable between this bench's processes. */
const now = () => performance.timeOrigin + performance.now();

/** An event-loop delay histogram's reading in ms, its 10 ms timer period taken off (as bench/event-loop-probe.ts does). */
function readingOf(histogram: ReturnType<typeof monitorEventLoopDelay>): ProbeReading {
  const late = (ns: number) => Math.max(0, ns / 1e6 - 10);
  return { p50: late(histogram.percentile(50)), p99: late(histogram.percentile(99)), max: late(histogram.max), mean: late(histogram.mean) };
}

/** The stand-in echoes the message in chunks of three words ("Echo:" is one): this many words make the reply last STREAM_MS. */
function messageFor(marker: string): string {
  const chunks = Math.max(2, Math.round(STREAM_MS / CHUNK_MS) + 1);
  const words = Array.from({ length: chunks * 3 - 2 }, (_, i) => `w${i}`);
  return `${marker} ${words.join(" ")}`;
}

// ---------------------------------------------------------------- the stand-in and the proxy, each in a process of its own

/**
 * The stand-in and the proxy run as processes of their own (this file again, with --role), so that neither's work
 * waits in the client's event loop, nor the client's in theirs: the client's thread only measures.
 */
interface Helper {
  url: string;
  /** Stops it; its event-loop delay over its life. Safe to call twice. */
  close(): Promise<ProbeReading | undefined>;
}

async function startHelper(role: "stand-in" | "proxy", extra: string[], onMessage: (message: unknown) => void = () => {}): Promise<Helper> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--role", role, ...extra], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the ${role} exited (${code}) before it listened`)));
    child.on("message", (message) => {
      const ready = (message as { url?: string }).url;
      if (ready) resolve(ready);
      else onMessage(message);
    });
  });
  let closing: Promise<ProbeReading | undefined> | undefined;
  return {
    url,
    close: () => {
      closing ??= new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve(undefined);
        }, 15_000);
        child.on("message", (message) => {
          const closed = (message as { closed?: ProbeReading }).closed;
          if (closed) {
            clearTimeout(timer);
            resolve(closed);
          }
        });
        child.send("close");
      });
      return closing;
    },
  };
}

/** A first chunk as the stand-in's process tells it: the reply's marker, the request's arrival, the chunk's write (epoch ms). */
type FirstChunk = [marker: string, receivedAt: number, writtenAt: number];

/** The body of `--role stand-in` / `--role proxy`: listens, says where over IPC, and on "close" answers its event-loop delay and ends. */
async function runRole(role: string): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let close: () => Promise<void>;
  let url: string;
  if (role === "stand-in") {
    let batch: FirstChunk[] = [];
    const fake = await startOpenAiCompatibleFake({
      chunkDelayMs: CHUNK_MS,
      firstChunkDelayMs: FIRST_TOKEN_MS,
      onFirstChunk: (body, times) => {
        const messages = (body as { messages?: ChatTurn[] }).messages ?? [];
        const marker = /^(r\d+)\b/.exec(lastUserText(messages))?.[1];
        const origin = performance.timeOrigin;
        if (marker) batch.push([marker, origin + times.receivedAt, origin + times.writtenAt]);
      },
    });
    const flush = () => {
      if (batch.length) process.send?.({ firstChunks: batch });
      batch = [];
    };
    const flusher = setInterval(flush, 200);
    url = fake.url;
    close = async () => {
      clearInterval(flusher);
      flush();
      await fake.close();
    };
  } else if (role === "proxy") {
    const proxy = await startRoundRobinProxy(args.backend ?? []);
    url = proxy.url;
    close = proxy.close;
  } else throw new Error(`unknown role ${role}`);
  process.on("message", (message) => {
    if (message !== "close") return;
    void close().finally(() => process.send?.({ closed: readingOf(loop) }, () => process.exit(0)));
  });
  // The bench gone (killed, crashed): so is this.
  process.on("disconnect", () => process.exit(0));
  process.send?.({ url });
}

// ---------------------------------------------------------------- servers

interface Server {
  base: string;
  child: ChildProcess;
  output: () => string;
  probe(message: "probe:reset" | "probe:read"): Promise<ProbeReading | undefined>;
}

interface ProbeReading {
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Compiles the server (scripts/build-server.ts) into dist/, inside this worktree, and gives the `serve` script's arguments. */
function compiledServer(): string[] {
  const outDir = "dist/bench-concurrent-streams-server";
  const built = spawnSync("npx", ["tsx", "scripts/build-server.ts", "--outDir", outDir], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("building the server failed");
  return serveScriptArgs(path.join(root, outDir, "main.js"));
}

async function startServer(nodeArgs: string[], env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  let log = "";
  const probe = path.join(root, "bench/event-loop-probe.ts");
  // --cpu-prof DIR: each server writes a V8 CPU profile into DIR when it stops (bench/cpu-profile-summary.ts sums it).
  const profile = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${args["cpu-prof"]}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", probe, ...nodeArgs], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      APP_SECRET: "bench-streams-secret-0123456789abcdefghij",
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log}`);
    const up = await fetch(`${base}/api/payment-settings`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      return {
        base,
        child,
        output: () => log,
        probe: (message) =>
          new Promise((resolve) => {
            if (message === "probe:reset") {
              child.send(message);
              return resolve(undefined);
            }
            const timer = setTimeout(() => resolve(undefined), 5000);
            child.once("message", (answer) => {
              clearTimeout(timer);
              resolve((answer as { probe?: ProbeReading }).probe);
            });
            child.send(message);
          }),
      };
    }
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not answer within 60 s:\n${log}`);
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
/** The machine's count of connections a listening socket's full queue turned away (netstat's ListenOverflows). */
function listenOverflows(): number {
  const [names, values] = readFileSync("/proc/net/netstat", "utf8")
    .split("\n")
    .filter((line) => line.startsWith("TcpExt:"))
    .map((line) => line.split(/\s+/));
  const at = names?.indexOf("ListenOverflows") ?? -1;
  return at > 0 ? Number(values?.[at] ?? 0) : 0;
}

// ---------------------------------------------------------------- HTTP client

/** Keep-alive, no cap: each stream holds its own connection, as each browser tab would. */
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

interface Answer {
  status: number;
  body: string;
}

/** One request through node:http (lighter than fetch for thousands of them), the whole answer as text. */
function call(base: string, method: string, pathname: string, cookie?: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${base}${pathname}`,
      {
        method,
        agent,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (part: string) => {
          text += part;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    req.setTimeout(60_000, () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end(payload);
  });
}

interface StreamResult {
  marker: string;
  sentAt: number;
  firstTokenAt?: number;
  endedAt?: number;
  status?: number;
  /** Why it counts as an error; undefined for a reply that ended with `done` and a complete message. */
  error?: string;
}

/** POST /api/chats/{id}/reply, read as it streams: when its first `delta` arrives, and how it ends. */
function openReply(base: string, chatId: number, cookie: string, marker: string): Promise<StreamResult> {
  return new Promise((resolve) => {
    const payload = JSON.stringify({ content: messageFor(marker) });
    const result: StreamResult = { marker, sentAt: 0 };
    let settled = false;
    let ended = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) result.error = error;
      else if (!ended) result.error = "ended without a complete reply";
      result.endedAt = now();
      resolve(result);
    };
    const req = request(`${base}/api/chats/${chatId}/reply`, {
      method: "POST",
      agent,
      headers: { cookie, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
    });
    const deadline = setTimeout(() => {
      finish(`not ended after ${STREAM_DEADLINE_MS / 1000} s`);
      req.destroy();
    }, STREAM_DEADLINE_MS);
    req.on("response", (res) => {
      result.status = res.statusCode;
      res.setEncoding("utf8");
      if (res.statusCode !== 200) {
        let text = "";
        res.on("data", (part: string) => {
          text = (text + part).slice(0, 300);
        });
        res.on("end", () => finish(`HTTP ${res.statusCode}: ${text}`));
        return;
      }
      let pending = "";
      res.on("data", (part: string) => {
        pending += part;
        for (let cut = pending.indexOf("\n\n"); cut >= 0; cut = pending.indexOf("\n\n")) {
          const event = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          if (result.firstTokenAt === undefined && event.includes('"type":"delta"')) result.firstTokenAt = now();
          else if (event.includes('"type":"error"')) return finish(`error event: ${event.slice(0, 300)}`);
          else if (event.includes('"type":"done"')) {
            const done = JSON.parse(event.slice(event.indexOf("data: ") + 6)) as { assistantMessage: { status: string } };
            if (done.assistantMessage.status !== "complete") return finish(`ended ${done.assistantMessage.status}`);
            ended = true;
          }
        }
      });
      res.on("end", () => finish());
      res.on("error", (error) => finish(`stream broke: ${error.message}`));
    });
    req.on("error", (error) => finish(`request failed: ${error.message}`));
    result.sentAt = now();
    req.end(payload);
  });
}

// ---------------------------------------------------------------- one setup

interface SetupResult {
  label: string;
  instances: number;
  replies: number;
  errors: string[];
  added: number[];
  beforeProvider: number[];
  afterFirstChunk: number[];
  ttft: number[];
  userRead: number[];
  userReadErrors: number;
  userReadSkipped: number;
  loops: (ProbeReading | undefined)[];
  benchLoop: ProbeReading;
  standInLoop: ProbeReading | undefined;
  proxyLoop: ProbeReading | undefined;
  rssPeak: number[];
  rssBefore: number[];
  cores: number[];
  dbBusyPeak: number;
  dbConnectionsPeak: number;
  dbSaturated: number;
  wallSeconds: number;
  /** From the first request until every reply had its first token. */
  firstsSeconds: number;
  /** Server CPU (all instances) per reply, over the whole load. */
  cpuMsPerReply: number;
  /** Seconds from a reply's first token to its end (complete replies). */
  streamSeconds: number[];
  /** The machine's 1-minute load average before and after (2 cores, shared). */
  load: [number, number];
  /** Connections turned away by a full listen queue meanwhile (the whole machine's count). */
  overflows: number;
}

async function runSetup(instances: number, nodeArgs: string[]): Promise<SetupResult> {
  const replies = STREAMS * instances;
  const label = instances === 1 ? "one instance" : `${instances} instances + proxy`;
  console.log(
    `\n${label}: ${replies} replies of ${STREAM_MS / 1000} s, chunks every ${CHUNK_MS} ms, stand-in's first token after ${FIRST_TOKEN_MS} ms`,
  );

  const firstChunks = new Map<string, { receivedAt: number; writtenAt: number }>();
  const fake = await startHelper("stand-in", [], (message) => {
    for (const [marker, receivedAt, writtenAt] of (message as { firstChunks?: FirstChunk[] }).firstChunks ?? []) {
      firstChunks.set(marker, { receivedAt, writtenAt });
    }
  });
  const scratch = await createScratchPostgres();
  const pool = new pg.Pool({ connectionString: scratch.url, max: 4 });
  pool.on("error", () => {});
  const servers: Server[] = [];
  let proxy: Helper | undefined;
  try {
    const env: Record<string, string> = { DATABASE_URL: scratch.url, ...(instances > 1 ? { REDIS_URL } : {}) };
    // The first one migrates; the others start on a migrated database.
    servers.push(await startServer(nodeArgs, env));
    for (let i = 1; i < instances; i++) servers.push(await startServer(nodeArgs, env));
    if (instances > 1)
      proxy = await startHelper(
        "proxy",
        servers.flatMap((s) => ["--backend", s.base]),
      );
    const base = proxy?.url ?? (servers[0] as Server).base;

    // The admin (the first account) points OpenAI at the stand-in and lifts both plans' allowances.
    const headers = await adminWithOpenAiAt(base, fake);
    const limits = await call(base, "PUT", "/api/admin/plan-allowances", headers.cookie, {
      free: { monthlyTokens: null, messagesPerDay: null },
      earlyAccess: { monthlyTokens: null, messagesPerDay: null },
    });
    if (limits.status !== 200) throw new Error(`plan allowances: ${limits.status} ${limits.body}`);

    // Users and sessions straight into the database (registration is throttled per address); one more user reads /api/user.
    const passwordHash = await hashPassword("bench-password-not-used");
    const { rows } = await pool.query<{ id: number }>(
      `insert into users (username, email, name, password_hash)
       select 'bench' || i, 'bench' || i || '@example.com', 'Bench ' || i, $1 from generate_series(1, $2::int) as i
       returning id`,
      [passwordHash, replies + 1],
    );
    const tokens = rows.map(() => randomBytes(32).toString("base64url"));
    const day = 86_400_000;
    await pool.query(
      `insert into sessions (id, user_id, idle_expires_at, absolute_expires_at)
       select unnest($1::text[]), unnest($2::int[]), $3::timestamptz, $4::timestamptz`,
      [tokens.map(sha256Hex), rows.map((r) => r.id), new Date(Date.now() + 7 * day), new Date(Date.now() + 30 * day)],
    );
    const cookies = tokens.map((token) => `sid=${token}`);
    const readerCookie = cookies.pop() as string;

    // One chat per user, through the API, 20 at a time.
    const chatIds: number[] = new Array(replies);
    for (let i = 0; i < replies; i += 20) {
      await Promise.all(
        cookies.slice(i, i + 20).map(async (cookie, j) => {
          const created = await call(base, "POST", "/api/chats", cookie, {});
          if (created.status !== 201) throw new Error(`creating a chat: ${created.status} ${created.body}`);
          chatIds[i + j] = (JSON.parse(created.body) as { id: number }).id;
        }),
      );
    }
    const me = await call(base, "GET", "/api/user", readerCookie);
    if (me.status !== 200) throw new Error(`GET /api/user: ${me.status} ${me.body}`);

    // One short reply on each instance first (the admin's): the provider's SDK loads with a server's first reply
    // (ARCHITECTURE.md, "heavy modules on first use"), which is a start's cost, not the load's.
    for (const server of servers) {
      const warm = await call(server.base, "POST", "/api/chats", headers.cookie, {});
      const chatId = (JSON.parse(warm.body) as { id: number }).id;
      const reply = await call(server.base, "POST", `/api/chats/${chatId}/reply`, headers.cookie, { content: "warm up" });
      if (reply.status !== 200 || !reply.body.includes('"type":"done"'))
        throw new Error(`warm-up reply: ${reply.status} ${reply.body.slice(0, 300)}`);
    }

    // Quiet for 6 s: the sessions the setup looked up leave the servers' 5-second cache, the start's garbage is collected.
    await sleep(6000);
    const pids = servers.map((s) => s.child.pid ?? 0);
    const rssBefore = pids.map(rssMb);
    const rssPeak = [...rssBefore];
    const cpuBefore = pids.map(cpuSeconds);
    for (const server of servers) await server.probe("probe:reset");
    const benchLoop = monitorEventLoopDelay({ resolution: 10 });
    benchLoop.enable();

    const rssTimer = setInterval(() => {
      pids.forEach((pid, i) => {
        rssPeak[i] = Math.max(rssPeak[i] ?? 0, rssMb(pid));
      });
    }, 250);

    // Connections of the scratch database: how busy the app's pools keep it (this bench's own excluded).
    const poolTotal = POOL_SIZE * instances;
    let dbBusyPeak = 0;
    let dbConnectionsPeak = 0;
    let dbSaturated = 0;
    let dbSamples = 0;
    let dbSampling = false;
    const dbTimer = setInterval(() => {
      if (dbSampling) return;
      dbSampling = true;
      void pool
        .query<{ busy: number; total: number }>(
          `select count(*) filter (where state <> 'idle')::int as busy, count(*)::int as total
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
        )
        .then(({ rows: [row] }) => {
          if (!row) return;
          dbSamples++;
          dbBusyPeak = Math.max(dbBusyPeak, row.busy);
          dbConnectionsPeak = Math.max(dbConnectionsPeak, row.total);
          if (row.busy >= poolTotal) dbSaturated++;
        })
        .catch(() => {})
        .finally(() => {
          dbSampling = false;
        });
    }, 500);

    // GET /api/user every 100 ms while the replies run (not waiting for the one before: a slow answer shows as such).
    const userRead: number[] = [];
    let userReadErrors = 0;
    let userReadSkipped = 0;
    let readsInFlight = 0;
    const readTimer = setInterval(() => {
      if (readsInFlight >= 50) {
        userReadSkipped++;
        return;
      }
      readsInFlight++;
      const started = now();
      void call(base, "GET", "/api/user", readerCookie)
        .then(
          (answer) => {
            if (answer.status === 200) userRead.push(now() - started);
            else userReadErrors++;
          },
          () => userReadErrors++,
        )
        .finally(() => readsInFlight--);
    }, USER_READ_EVERY_MS);

    // All replies at once: every request is sent in this one turn of the loop (RAMP_SECONDS: spread evenly instead).
    const loadBefore = loadavg()[0] ?? 0;
    const overflowsBefore = listenOverflows();
    const started = now();
    const results = await Promise.all(
      chatIds.map(async (chatId, i) => {
        if (RAMP_MS > 0) await sleep((i * RAMP_MS) / replies);
        return openReply(base, chatId, cookies[i] as string, `r${i}`);
      }),
    );
    const wallSeconds = (now() - started) / 1000;
    const loadAfter = loadavg()[0] ?? 0;
    const overflows = listenOverflows() - overflowsBefore;
    clearInterval(readTimer);
    clearInterval(rssTimer);
    clearInterval(dbTimer);
    benchLoop.disable();
    const cpuAfter = pids.map(cpuSeconds);
    const cores = pids.map((_, i) => ((cpuAfter[i] ?? 0) - (cpuBefore[i] ?? 0)) / wallSeconds);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const cpuMsPerReply = ((sum(cpuAfter) - sum(cpuBefore)) * 1000) / replies;
    const loops = await Promise.all(servers.map((s) => s.probe("probe:read")));
    // The stand-in sends its last first chunks as it closes.
    const standInLoop = await fake.close();
    const proxyLoop = await proxy?.close();
    for (let i = 0; i < 100 && readsInFlight > 0; i++) await sleep(100);

    const added: number[] = [];
    const beforeProvider: number[] = [];
    const afterFirstChunk: number[] = [];
    const ttft: number[] = [];
    const errors: string[] = [];
    for (const result of results) {
      if (result.error) errors.push(`${result.marker}: ${result.error}`);
      const atStandIn = firstChunks.get(result.marker);
      if (result.firstTokenAt === undefined || !atStandIn) continue;
      ttft.push(result.firstTokenAt - result.sentAt);
      beforeProvider.push(atStandIn.receivedAt - result.sentAt);
      afterFirstChunk.push(result.firstTokenAt - atStandIn.writtenAt);
      added.push(result.firstTokenAt - result.sentAt - (atStandIn.writtenAt - atStandIn.receivedAt));
    }
    return {
      label,
      instances,
      replies,
      errors,
      added,
      beforeProvider,
      afterFirstChunk,
      ttft,
      userRead,
      userReadErrors,
      userReadSkipped,
      loops,
      benchLoop: readingOf(benchLoop),
      standInLoop,
      proxyLoop,
      rssPeak,
      rssBefore,
      cores,
      dbBusyPeak,
      dbConnectionsPeak,
      dbSaturated: dbSamples ? dbSaturated / dbSamples : 0,
      wallSeconds,
      firstsSeconds: (Math.max(started, ...results.map((r) => r.firstTokenAt ?? started)) - started) / 1000,
      cpuMsPerReply,
      streamSeconds: results
        .filter((r) => !r.error && r.firstTokenAt !== undefined)
        .map((r) => ((r.endedAt ?? 0) - (r.firstTokenAt ?? 0)) / 1000),
      load: [loadBefore, loadAfter],
      overflows,
    };
  } catch (error) {
    for (const server of servers) console.error(`server ${server.base} said:\n${server.output()}`);
    throw error;
  } finally {
    await proxy?.close();
    await Promise.all(servers.map(stopServer));
    for (const server of servers) {
      const said = server.output().trim();
      if (said) console.log(`server ${server.base} logged (last 2,000 characters):\n${said.slice(-2000)}`);
    }
    await fake.close();
    await pool.end();
    await scratch.drop();
  }
}

// ---------------------------------------------------------------- report

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)}` : "-");
const pair = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;

function report(r: SetupResult): boolean {
  const addedP99 = percentile(r.added, 99);
  const readP99 = percentile(r.userRead, 99);
  const rss = Math.max(...r.rssPeak);
  const checks = [
    ["errors", `${r.errors.length} of ${r.replies}`, `${TARGETS.errors}`, r.errors.length <= TARGETS.errors],
    ["added first token p50 / p99 (ms)", pair(r.added), `p99 ≤ ${TARGETS.addedP99}`, addedP99 <= TARGETS.addedP99],
    ["GET /api/user p50 / p99 (ms)", pair(r.userRead), `p99 ≤ ${TARGETS.userReadP99}`, readP99 <= TARGETS.userReadP99],
    ["RSS peak per server (MB)", r.rssPeak.map((m) => m.toFixed(0)).join(", "), `≤ ${TARGETS.rssMb}`, rss <= TARGETS.rssMb],
  ] as const;
  const rows: [string, string, string][] = [
    ...checks.map(([what, value, target, met]) => [what, value, `${target}: ${met ? "met" : "MISSED"}`] as [string, string, string]),
    ["  time to first token p50 / p99 (ms)", pair(r.ttft), `stand-in's own: ${FIRST_TOKEN_MS}`],
    ["  before the stand-in is asked p50 / p99", pair(r.beforeProvider), "request sent → stand-in gets it"],
    ["  after its first chunk p50 / p99", pair(r.afterFirstChunk), "stand-in writes it → client reads it"],
    ["RSS before (MB)", r.rssBefore.map((m) => m.toFixed(0)).join(", "), ""],
    [
      "server event-loop delay p50 / p99 / max (ms)",
      r.loops.map((l) => (l ? `${ms(l.p50)} / ${ms(l.p99)} / ${ms(l.max)}` : "no answer")).join("; "),
      "",
    ],
    ["server CPU (cores, average)", r.cores.map((c) => c.toFixed(2)).join(", "), "of 2, shared"],
    ["  server CPU per reply (ms)", r.cpuMsPerReply.toFixed(1), `all instances, ${Math.round(STREAM_MS / CHUNK_MS)} pieces a reply`],
    ["last first token after (s)", r.firstsSeconds.toFixed(1), ""],
    [
      "stream length, first token to end p50 / p99 (s)",
      `${percentile(r.streamSeconds, 50).toFixed(1)} / ${percentile(r.streamSeconds, 99).toFixed(1)}`,
      `the stand-in's: ${((STREAM_MS - CHUNK_MS) / 1000).toFixed(1)}`,
    ],
    ["machine load average before / after", `${r.load[0].toFixed(1)} / ${r.load[1].toFixed(1)}`, "1 minute, 2 cores"],
    ["event-loop delay p99 / max (ms): client", `${ms(r.benchLoop.p99)} / ${ms(r.benchLoop.max)}`, "this process, while the replies ran"],
    ["  stand-in", r.standInLoop ? `${ms(r.standInLoop.p99)} / ${ms(r.standInLoop.max)}` : "-", "its process, its whole life"],
    ...(r.proxyLoop
      ? [["  proxy", `${ms(r.proxyLoop.p99)} / ${ms(r.proxyLoop.max)}`, "its process, its whole life"] as [string, string, string]]
      : []),
    [
      "database connections busy: peak / all in use",
      `${r.dbBusyPeak} of ${r.dbConnectionsPeak} open / ${(r.dbSaturated * 100).toFixed(0)}% of samples`,
      `pool ${POOL_SIZE} per instance`,
    ],
    ["connections a full listen queue turned away", `${r.overflows}`, "the machine's ListenOverflows"],
    ["GET /api/user samples (failed, skipped)", `${r.userRead.length} (${r.userReadErrors}, ${r.userReadSkipped})`, ""],
    ["wall time until the last reply ended (s)", r.wallSeconds.toFixed(1), ""],
  ];
  const when = RAMP_MS > 0 ? `started over ${RAMP_MS / 1000} s` : "at once";
  console.log(`\n${r.label}: ${r.replies} replies ${when}, one per user`);
  const width = Math.max(...rows.map((row) => row[0].length));
  const valueWidth = Math.max(...rows.map((row) => row[1].length));
  for (const [what, value, note] of rows) console.log(`${what.padEnd(width)}  ${value.padEnd(valueWidth)}  ${note}`);
  if (r.errors.length) {
    const kinds = new Map<string, number>();
    for (const error of r.errors) {
      const kind = error
        .replace(/^r\d+: /, "")
        .replace(/\d+/g, "N")
        .slice(0, 160);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    console.log("errors by kind:");
    for (const [kind, count] of kinds) console.log(`  ${count} x ${kind}`);
  }
  return checks.every(([, , , met]) => met);
}

async function main() {
  if (args.role) return runRole(args.role);
  const nodeArgs = compiledServer();
  const setups = args.setup === "one" ? [1] : args.setup === "two" ? [2] : [1, 2];
  let missed = false;
  for (const instances of setups) missed = !report(await runSetup(instances, nodeArgs)) || missed;
  agent.destroy();
  if (missed && process.env.BENCH_STRICT === "1") process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
