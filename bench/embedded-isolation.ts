/**
 * npm run bench:embedded-isolation [-- --only upload,pdf,export,exports3,import] [-- --messages N] [-- --app <tree>]
 * Issue 43: while ONE user does each heavy thing the plans allow, one at a time, how long does another signed-in
 * user wait, and how much memory does the server take? Three processes, so that no client's work counts as the
 * server's:
 *   - the server (this file with --serve): the real app on PGlite in a new data folder (or a scratch PostgreSQL
 *     database with BENCH_DB=postgres and TEST_DATABASE_URL), on 127.0.0.1, seeded in bulk SQL with the heavy user's
 *     100k messages (seed-export-chats.ts); `--app <tree>` runs another checkout's server code (main's, to compare);
 *   - the driver (--drive): the heavy user, who prepares each thing (its bytes made before it is timed), then does it:
 *       upload    the largest file the plans allow (plan_allowances.max_file_bytes; an image, so that reading it
 *                 afterwards is nothing), until the upload answers;
 *       pdf       a 300-page PDF uploaded and read by the ingestion workers, until it is ready;
 *       export    the JSON export of the 100k messages, read as fast as it comes;
 *       exports3  three such exports at once;
 *       import    the largest chat import (a ChatGPT file just under IMPORT_LIMITS.maxBytes), until it answers;
 *   - this process, the other client: `GET /api/user` signed in as another user every 20 ms, one at a time, while each
 *     thing runs; each wait timed from when the request was due.
 * Per thing: the waits' p50 / p99 / max, the server's RSS before, at its peak (VmRSS sampled every 20 ms, and VmHWM
 * reset at the start where the kernel allows) and 5 s after, and the server's event-loop delay (bench/event-loop-probe.ts)
 * against the targets (p99 ≤ 50 ms, RSS peak ≤ 400 MB, RSS after within 50 MB of before). A missed target is
 * reported, not an error: the exit code is non-zero only when something failed to run.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { IMPORT_LIMITS } from "../src/shared/contracts/chat-transfer.js";
import { conversationJson, exportFile, fillerWords, mappingNode } from "../tests/helpers/chatgpt-export-file.js";
import { multipartFile } from "../tests/helpers/multipart.js";
import { bookPdf } from "./book-pdf.js";
import { forkRole, nextMessage, probe, rssMb, sleep, waitStats, watchPeakRss } from "./isolation-kit.js";
import { seedExportChats } from "./seed-export-chats.js";

const PHASES = ["upload", "pdf", "export", "exports3", "import"] as const;
type Phase = (typeof PHASES)[number];

const { values: args } = parseArgs({
  options: {
    serve: { type: "boolean", default: false },
    drive: { type: "boolean", default: false },
    app: { type: "string", default: path.resolve(import.meta.dirname, "..") },
    data: { type: "string", default: "" },
    base: { type: "string", default: "" },
    cookie: { type: "string", default: "" },
    "max-file": { type: "string", default: "0" },
    messages: { type: "string", default: "100000" },
    only: { type: "string", default: PHASES.join(",") },
  },
});
const MESSAGES = Number(args.messages);
const CHATS = 100;
/** Every thing ends within this, or the run stops with an error (the bench never waits forever). */
const PHASE_LIMIT_MS = 15 * 60_000;
const TARGET = { p99Ms: 50, peakMb: 400, afterMb: 50 };

interface Ready {
  base: string;
  heavy: string;
  prober: string;
  maxFileBytes: number;
  kind: string;
}
type Probe = { p50: number; p99: number; max: number; mean: number };

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === "object" && m !== null;

/** The server: `--app`'s code on its own database, seeded, on 127.0.0.1; tells the parent its address and two sessions. */
async function serve() {
  const root = args.app;
  const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
  const [{ buildApp }, { openDatabase }, { testConfig, newAccount }, { createScratchPostgres }] = await Promise.all([
    load("src/server/app.ts"),
    load("src/server/db/client.ts"),
    load("tests/helpers/build-test-app.ts"),
    load("tests/helpers/test-database.ts"),
    import("./event-loop-probe.js"),
  ]);
  const scratch = process.env.BENCH_DB === "postgres" ? await createScratchPostgres() : undefined;
  const database = await openDatabase(scratch ? { url: scratch.url } : { pgliteDir: args.data });
  const app = await buildApp({ config: testConfig({ CHECK_RESPONSES: "false" }), database, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const signUp = async (planType: string) => {
    const res = await app.inject({ method: "POST", url: "/api/register", payload: newAccount({ planType }) });
    if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
    return { id: (res.json() as { id: number }).id, cookie: String(res.headers["set-cookie"]).split(";")[0] ?? "" };
  };
  const heavy = await signUp("free");
  const prober = await signUp("free");
  const { sql } = await import("drizzle-orm");
  // The heavy user on the plan with the most room, so that every thing fits its library; the largest file either
  // plan allows is the upload.
  await database.db.execute(sql`update users set plan_type = 'earlyAccess' where id = ${heavy.id}`);
  const limit = await database.db.execute(sql`select max(max_file_bytes)::bigint as bytes from plan_allowances`);
  const maxFileBytes = Number((limit.rows[0] as { bytes: string | number | null } | undefined)?.bytes ?? 50 * 1024 * 1024);
  if (MESSAGES > 0) await seedExportChats(database, heavy.id, MESSAGES, CHATS);
  process.on("message", async (message) => {
    if (message !== "stop") return;
    await app.close();
    await database.close();
    await scratch?.drop();
    process.exit(0);
  });
  process.send?.({
    ready: { base, heavy: heavy.cookie, prober: prober.cookie, maxFileBytes, kind: database.kind } satisfies Ready,
  });
}

/** A ChatGPT export of plain conversations just under the import's byte limit (and within its message counts). */
function largestImport(): Buffer {
  const conversations = 1_000;
  const perConversation = Math.min(IMPORT_LIMITS.maxMessagesPerChat, Math.floor(IMPORT_LIMITS.maxMessages / conversations));
  const build = (textLength: number) => {
    const words = fillerWords(textLength);
    const parts: string[] = [];
    for (let c = 0; c < conversations; c++) {
      const nodes: string[] = [];
      let parent: string | null = null;
      for (let i = 0; i < perConversation; i++) {
        const id = `c${c}-m${i}`;
        const message = {
          author: { role: i % 2 === 0 ? "user" : "assistant" },
          content: { content_type: "text", parts: [`${i} ${words}`.slice(0, textLength)] },
          create_time: 1719000000 + i,
        };
        nodes.push(mappingNode(id, message, parent));
        parent = id;
      }
      parts.push(conversationJson({ title: `Imported ${c + 1}`, create_time: 1719000000, current_node: parent }, nodes));
    }
    return exportFile(parts);
  };
  // The text's length that brings the file to 99% of the limit: one trial, then scaled (the size grows linearly).
  const trial = build(100);
  const perChar = conversations * perConversation;
  const textLength = Math.max(1, Math.floor(100 + (IMPORT_LIMITS.maxBytes * 0.99 - trial.length) / perChar));
  return build(textLength);
}

/** The heavy user: prepares a thing when asked, does it on "go", says when it is done. */
async function drive(base: string, cookie: string, maxFileBytes: number) {
  const headers = { cookie };
  const ok = async (res: Response, what: string) => {
    if (!res.ok) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res;
  };
  const exportAll = async () => {
    const res = await ok(await fetch(`${base}/api/chats/export?format=json`, { headers }), "export");
    let bytes = 0;
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
    return bytes;
  };
  const fileState = async (id: number) => {
    const res = await ok(await fetch(`${base}/api/files/${id}`, { headers }), "file");
    return ((await res.json()) as { status: string }).status;
  };
  /** Until the file is read (ready or failed), at most PHASE_LIMIT_MS. */
  const settled = async (id: number) => {
    const until = Date.now() + PHASE_LIMIT_MS;
    for (let status = await fileState(id); ; status = await fileState(id)) {
      if (status === "ready" || status === "failed") return status;
      if (Date.now() > until) throw new Error(`file ${id} still ${status}`);
      await sleep(250);
    }
  };
  const upload = async (name: string, type: string, bytes: Uint8Array) => {
    const body = multipartFile("file", name, type, bytes);
    const res = await ok(
      await fetch(`${base}/api/files`, { method: "POST", headers: { ...body.headers, cookie }, body: body.payload }),
      "upload",
    );
    return (await res.json()) as { id: number; size: number };
  };
  const prepare: Record<Phase, () => Promise<() => Promise<string>>> = {
    async upload() {
      // A PNG's signature and header, then random bytes: an image by its bytes, of the largest size allowed.
      const bytes = randomBytes(maxFileBytes);
      Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").copy(bytes, 0);
      return async () => {
        const file = await upload("largest.png", "image/png", bytes);
        // Its reading (nothing to read in an image) ends before the next thing, untimed.
        const status = await settled(file.id);
        return `${(file.size / 1024 / 1024).toFixed(0)} MiB stored, ${status}`;
      };
    },
    async pdf() {
      const pdf = await bookPdf(300);
      return async () => {
        const file = await upload("book.pdf", "application/pdf", pdf);
        const status = await settled(file.id);
        return `300 pages (${(pdf.byteLength / 1024).toFixed(0)} KB) uploaded and read: ${status}`;
      };
    },
    async export() {
      return async () => `${((await exportAll()) / 1e6).toFixed(1)} MB`;
    },
    async exports3() {
      return async () => {
        const sizes = await Promise.all([exportAll(), exportAll(), exportAll()]);
        return `${sizes.map((b) => (b / 1e6).toFixed(1)).join(" + ")} MB`;
      };
    },
    async import() {
      const file = largestImport();
      return async () => {
        const body = multipartFile("file", "conversations.json", "application/json", file);
        const res = await ok(
          await fetch(`${base}/api/chats/import`, { method: "POST", headers: { ...body.headers, cookie }, body: body.payload }),
          "import",
        );
        const result = (await res.json()) as { imported: number; skipped: unknown[] };
        return `${(file.length / 1024 / 1024).toFixed(1)} MiB: ${result.imported} chats imported, ${result.skipped.length} skipped`;
      };
    },
  };
  let run: (() => Promise<string>) | undefined;
  process.on("message", async (message) => {
    try {
      if (isObject(message) && typeof message.prepare === "string") {
        run = await prepare[message.prepare as Phase]();
        process.send?.({ prepared: true });
      } else if (message === "go" && run) {
        const started = performance.now();
        const detail = await run();
        process.send?.({ done: { detail, seconds: (performance.now() - started) / 1000 } });
      } else if (message === "stop") process.exit(0);
    } catch (error) {
      process.send?.({
        failed: error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ""}` : String(error),
      });
    }
  });
  process.send?.({ driving: true });
}

type Row = {
  phase: Phase;
  detail: string;
  seconds: number;
  asks: number;
  waits: ReturnType<typeof waitStats>;
  loop: Probe | null;
  before: number;
  peak: number;
  after: number;
};

function ask<T>(child: ChildProcess, message: unknown, accept: (m: unknown) => m is T): Promise<T> {
  const answer = nextMessage(child, accept);
  child.send(message as string);
  return answer;
}
const answered =
  (key: string) =>
  (m: unknown): m is Record<string, unknown> =>
    isObject(m) && (key in m || "failed" in m);

/** One thing: prepared, then done while the other user probes; the waits, the loop's delay and the server's memory. */
async function runPhase(phase: Phase, server: ChildProcess, driver: ChildProcess, ready: Ready): Promise<Row> {
  const pid = server.pid ?? 0;
  const prepared = await ask(driver, { prepare: phase }, answered("prepared"));
  if ("failed" in prepared) throw new Error(String(prepared.failed));
  await sleep(2_000);
  const before = rssMb(pid);
  const watch = watchPeakRss(pid);
  server.send("probe:reset");
  const done = ask(driver, "go", answered("done"));
  const limit = sleep(PHASE_LIMIT_MS).then(() => {
    throw new Error(`did not end within ${PHASE_LIMIT_MS / 60_000} minutes`);
  });
  const ended = Promise.race([done, limit]);
  let peak = 0;
  const [waits, result] = await Promise.all([probe(`${ready.base}/api/user`, { cookie: ready.prober }, ended), ended]).finally(() => {
    peak = watch.stop();
  });
  const loop = await Promise.race([
    ask(server, "probe:read", (m): m is { probe: Probe } => isObject(m) && "probe" in m).then((m) => m.probe),
    sleep(5_000).then(() => null),
  ]);
  if ("failed" in result) throw new Error(String(result.failed));
  const { detail, seconds } = result.done as { detail: string; seconds: number };
  await sleep(5_000);
  return { phase, detail, seconds, asks: waits.length, waits: waitStats(waits), loop, before, peak, after: rssMb(pid) };
}

async function main() {
  const only = args.only.split(",").map((p) => p.trim()) as Phase[];
  const unknown = only.filter((p) => !PHASES.includes(p));
  if (unknown.length) throw new Error(`unknown thing(s): ${unknown.join(", ")} (known: ${PHASES.join(", ")})`);
  const postgres = process.env.BENCH_DB === "postgres";
  const dataDir = postgres ? "" : mkdtempSync(path.join(tmpdir(), "bench-embedded-isolation-"));
  const server = forkRole(import.meta.filename, ["--serve", "--app", args.app, "--data", dataDir, "--messages", String(MESSAGES)]);
  let driver: ReturnType<typeof forkRole> | undefined;
  try {
    const { ready } = (await server.first) as { ready: Ready };
    driver = forkRole(import.meta.filename, [
      "--drive",
      "--base",
      ready.base,
      "--cookie",
      ready.heavy,
      "--max-file",
      String(ready.maxFileBytes),
    ]);
    await driver.first;
    const rows: Row[] = [];
    const failures: string[] = [];
    for (const phase of only) {
      if (server.process.exitCode !== null || server.process.signalCode !== null) {
        failures.push(`${phase}: not run, the server had ended (${server.process.exitCode ?? server.process.signalCode})`);
        continue;
      }
      try {
        const row = await runPhase(phase, server.process, driver.process, ready);
        rows.push(row);
        console.log(`${phase}: ${row.detail} in ${row.seconds.toFixed(1)} s (load average ${loadavg()[0]?.toFixed(1)})`);
      } catch (error) {
        const ended = server.process.exitCode ?? server.process.signalCode;
        const why = `${error instanceof Error ? error.message : String(error)}${ended !== null ? ` (the server ended: ${ended})` : ""}`;
        failures.push(`${phase}: ${why}`);
        console.log(`${phase}: FAILED ${why}`);
      }
    }
    report(ready.kind, rows);
    for (const failure of failures) console.log(`  FAILED ${failure}`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    if (driver?.process.connected) driver.process.send("stop");
    if (server.process.connected) server.process.send("stop");
    await Promise.race([new Promise((resolve) => server.process.once("exit", resolve)), sleep(30_000)]);
    if (server.process.exitCode === null) server.process.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(kind: string, rows: Row[]) {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "-");
  const database = kind === "postgres" ? "PostgreSQL" : "PGlite in a data folder";
  console.log(`\nbench:embedded-isolation on ${database}: GET /api/user of another user every 20 ms while one user does each thing`);
  console.log(
    "| thing | took | asks | wait p50 / p99 / max (ms) | loop delay p99 / max (ms) | RSS before / peak / after (MB) | p99 ≤ 50 ms | peak ≤ 400 MB | after ≤ before + 50 MB |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | :-: | :-: | :-: |");
  const met = (yes: boolean) => (yes ? "met" : "MISSED");
  for (const row of rows) {
    const loop = row.loop ? `${f(row.loop.p99)} / ${f(row.loop.max)}` : "-";
    console.log(
      `| ${row.phase} | ${row.seconds.toFixed(1)} s | ${row.asks} | ${f(row.waits.p50)} / ${f(row.waits.p99)} / ${f(row.waits.max)} | ${loop} | ` +
        `${row.before.toFixed(0)} / ${row.peak.toFixed(0)} / ${row.after.toFixed(0)} | ${met(row.waits.p99 <= TARGET.p99Ms)} | ` +
        `${met(row.peak <= TARGET.peakMb)} | ${met(row.after <= row.before + TARGET.afterMb)} |`,
    );
  }
  for (const row of rows) console.log(`  ${row.phase}: ${row.detail}`);
}

const fail = (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
};
if (args.serve) await serve().catch(fail);
else if (args.drive) await drive(args.base, args.cookie, Number(args["max-file"])).catch(fail);
else
  await main().then(
    () => process.exit(),
    (error) => fail(error),
  );
