/**
 * npm run bench:memory [-- --db pglite|postgres|both] [-- --tsx]
 * The server's resident memory (RSS, from /proc) the way `npm start` runs it: the compiled server
 * (scripts/build-server.ts) with the flags of the `serve` script. Per database:
 *   idle       5 s after it first answers, no traffic
 *   mixed      after 1,000 requests (reads, chat creation, public pages, settings), 10 at a time
 *   restart    idle again, 5 s after a restart on the same database
 *   burst N    the peak during 50 replies streamed at once (an OpenAI-compatible stand-in, chunks
 *              25 ms apart), and what is left 5 s after; BURSTS bursts (3 unless set), to see whether it grows
 * --tsx runs src/server/main.ts through tsx instead (the "before" of issue 15). PostgreSQL: a scratch
 * database on TEST_DATABASE_URL's server. Targets (issue 15): idle ≤ 150 MB on PostgreSQL, ≤ 250 MB on PGlite,
 * and no growth over repeated bursts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startOpenAiCompatibleFake } from "../tests/fakes/openai-compatible-fake.js";
import { adminWithOpenAiAt, buildCompiledServer, freePort } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";

const { values: args } = parseArgs({ options: { db: { type: "string", default: "both" }, tsx: { type: "boolean", default: false } } });
const root = path.resolve(import.meta.dirname, "..");

const BURSTS = Number(process.env.BURSTS ?? 3);
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`.padStart(7);
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const compiled = args.tsx ? undefined : buildCompiledServer("memory");
const serveCommand = () => compiled ?? ["--import", "tsx", "src/server/main.ts"];

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, serveCommand(), {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      APP_SECRET: "bench-memory-secret-0123456789abcdefghij",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error("the server exited");
    if (
      await fetch(`${base}/api/payment-settings`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base };
    await sleep(100);
  }
  throw new Error("the server did not answer within 60 s");
}

async function measure(label: string, env: Record<string, string>) {
  const fake = await startOpenAiCompatibleFake({ chunkDelayMs: 25 });
  const { child, base } = await start(env);
  const pid = child.pid ?? 0;
  const rows: [string, string][] = [];
  try {
    await sleep(5000);
    rows.push(["idle", mb(rssKb(pid))]);

    const headers = await adminWithOpenAiAt(base, fake);

    const mixed = [
      () => fetch(`${base}/api/user`, { headers }),
      () => fetch(`${base}/api/chats?limit=20`, { headers }),
      () => fetch(`${base}/api/platform-settings`),
      () => fetch(`${base}/features`),
      () => fetch(`${base}/api/settings`, { headers }),
      () => fetch(`${base}/api/personalities`, { headers }),
      () => fetch(`${base}/api/chats`, { method: "POST", headers, body: "{}" }),
      () => fetch(`${base}/api/courses`, { headers }),
    ];
    for (let i = 0; i < 1000; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => (mixed[(i + j) % mixed.length] as () => Promise<Response>)().then((r) => r.arrayBuffer())),
      );
    }
    await sleep(2000);
    rows.push(["after 1,000 mixed requests", mb(rssKb(pid))]);

    for (let burst = 1; burst <= BURSTS; burst++) {
      let peak = 0;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssKb(pid));
      }, 50);
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const chat = (await (await fetch(`${base}/api/chats`, { method: "POST", headers, body: "{}" })).json()) as { id: number };
          const res = await fetch(`${base}/api/chats/${chat.id}/reply`, {
            method: "POST",
            headers,
            body: JSON.stringify({ content: `burst ${burst} stream ${i}` }),
          });
          await res.arrayBuffer();
        }),
      );
      clearInterval(sampler);
      await sleep(5000);
      rows.push([`burst ${burst}: 50 streams at once (peak / 5 s after)`, `${mb(peak)} / ${mb(rssKb(pid)).trim()}`]);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  try {
    // Started again on the same database: the everyday case (nothing to create or migrate).
    const again = await start(env);
    try {
      await sleep(5000);
      rows.push(["idle after a restart", mb(rssKb(again.child.pid ?? 0))]);
    } finally {
      again.child.kill("SIGTERM");
      await new Promise((resolve) => again.child.once("exit", resolve));
    }
  } finally {
    await fake.close();
  }
  console.log(`\n${label} (${args.tsx ? "tsx, src/server/main.ts" : "compiled, the serve script's flags"})`);
  for (const [what, value] of rows) console.log(`  ${what.padEnd(48)} ${value}`);
}

const webDist = process.env.WEB_DIST ?? path.join(root, "dist/web");
if (args.db !== "postgres") {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-memory-"));
  try {
    await measure("PGlite (a new data folder)", { DATA_DIR: dataDir, WEB_DIST: webDist });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (args.db !== "pglite") {
  const scratch = await createScratchPostgres();
  try {
    await measure("PostgreSQL", { DATABASE_URL: scratch.url, WEB_DIST: webDist });
  } finally {
    await scratch.drop();
  }
}
