/**
 * npm run bench:export-isolation [-- --format json|markdown] [-- --exports N] [-- --messages N]
 * Issue 43: while one user downloads the export of about 100k messages (one, or N at once), how long does everyone
 * else wait? Three processes, so that none of the clients' work is counted as the server's:
 *   - the server (this file with --serve): the real app on PGlite in memory (or a scratch PostgreSQL database with
 *     BENCH_DB=postgres), seeded in bulk SQL (seed-export-chats.ts: 100 chats, ~600 characters a message, branches);
 *   - the downloader (--download): the N exports at once, read as fast as they come, their bytes counted;
 *   - this process, the other client: every 20 ms, `GET /robots.txt` (no database) and `GET /api/user` signed in as
 *     another user, one at a time each, until the last export ends. Each wait is timed from when the request was due,
 *     so a held server cannot hide behind a late probe.
 * Reports the waits' p50 / p99 / max, the exports' bytes and time, the server's RSS (from /proc) before, at its peak
 * (sampled every 20 ms) and 5 s after, and what a busy machine does not change: the server's main-thread CPU time
 * between two turns of a 5 ms timer (process.threadCpuUsage) while the exports ran, i.e. how long the loop was held
 * in CPU terms (the machine is shared: its load stretches every wall-clock wait, and is printed with them).
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { forkRole, formatWaits, probe, rssMb, sleep, watchPeakRss } from "./isolation-kit.js";
import { seedExportChats } from "./seed-export-chats.js";

const { values: args } = parseArgs({
  options: {
    serve: { type: "boolean", default: false },
    download: { type: "string" },
    cookie: { type: "string", default: "" },
    format: { type: "string", default: "json" },
    exports: { type: "string", default: "1" },
    messages: { type: "string", default: "100000" },
  },
});
const MESSAGES = Number(args.messages);
const CHATS = 100;

interface Ready {
  base: string;
  exporter: string;
  prober: string;
}

const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** The server: the app on its own database, seeded, listening; tells the parent its address and two sessions. */
async function serve() {
  const [{ buildApp }, { openDatabase }, { testConfig, newAccount }, { createScratchPostgres }] = await Promise.all([
    import("../src/server/app.js"),
    import("../src/server/db/client.js"),
    import("../tests/helpers/build-test-app.js"),
    import("../tests/helpers/test-database.js"),
  ]);
  const scratch = process.env.BENCH_DB === "postgres" ? await createScratchPostgres() : undefined;
  const database = await openDatabase(scratch ? { url: scratch.url } : {});
  const app = await buildApp({ config: testConfig({ CHECK_RESPONSES: "false" }), database, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const signUp = async () => {
    const res = await app.inject({ method: "POST", url: "/api/register", payload: newAccount() });
    if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
    const cookie = String(res.headers["set-cookie"]).split(";")[0] ?? "";
    return { id: (res.json() as { id: number }).id, cookie };
  };
  const exporter = await signUp();
  const prober = await signUp();
  await seedExportChats(database, exporter.id, MESSAGES, CHATS);
  console.log(`seeded ${MESSAGES} messages in ${CHATS} chats (${database.kind})`);

  // The main thread's CPU time between turns of a 5 ms timer, each with the time the turn came (Date.now(), so that
  // the parent can pick a window: a held loop reads no message until it is free again).
  const held: { at: number; ms: number }[] = [];
  let last = cpuMs();
  setInterval(() => {
    const now = cpuMs();
    held.push({ at: Date.now(), ms: now - last });
    last = now;
  }, 5);
  process.on("message", async (message: { held?: [number, number] } | string) => {
    if (typeof message === "object" && message.held) {
      const [from, to] = message.held;
      process.send?.({ held: held.filter((turn) => turn.at >= from && turn.at <= to).map((turn) => turn.ms) });
    } else if (message === "stop") {
      await app.close();
      await database.close();
      await scratch?.drop();
      process.exit(0);
    }
  });
  process.send?.({ ready: { base, exporter: exporter.cookie, prober: prober.cookie } satisfies Ready });
}

/** The downloader: N exports at once, read as fast as they come; says when all have answered, then their bytes and times. */
async function download(url: string, cookie: string, count: number) {
  const started = performance.now();
  let answered = 0;
  const done = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await fetch(url, { headers: { cookie } });
      if (!res.ok || !res.body) throw new Error(`export: ${res.status}`);
      answered += 1;
      if (answered === count) process.send?.("answered");
      let bytes = 0;
      const reader = res.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
      return { bytes, ms: performance.now() - started };
    }),
  );
  process.send?.({ done }, () => process.exit(0));
}

/** A child process of this file in the given role; resolves with its first message. */
const child = (role: string[]) => forkRole(import.meta.filename, role);

async function main() {
  const server = child(["--serve", "--messages", String(MESSAGES)]);
  const { ready } = (await server.first) as { ready: Ready };
  const pid = server.process.pid ?? 0;
  try {
    await sleep(2000);
    const before = rssMb(pid);
    const watch = watchPeakRss(pid);
    const url = `${ready.base}/api/chats/export?format=${args.format}`;
    const downloader = child(["--download", url, "--cookie", ready.exporter, "--exports", String(args.exports)]);
    // Measured from the moment every export has answered (its headers) until the last one ends.
    await downloader.first;
    const from = Date.now();
    const finished = new Promise<{ done: { bytes: number; ms: number }[] }>((resolve) =>
      downloader.process.once("message", (m) => resolve(m as { done: { bytes: number; ms: number }[] })),
    );
    const load = loadavg()[0] ?? 0;
    const [robots, user, { done }] = await Promise.all([
      probe(`${ready.base}/robots.txt`, {}, finished),
      probe(`${ready.base}/api/user`, { cookie: ready.prober }, finished),
      finished,
    ]);
    const peak = watch.stop();
    const heldReply = new Promise<{ held: number[] }>((resolve) => server.process.once("message", (m) => resolve(m as { held: number[] })));
    server.process.send({ held: [from, Date.now()] });
    const { held } = await heldReply;
    await sleep(5000);
    const after = rssMb(pid);

    const stats = formatWaits;
    const database = process.env.BENCH_DB === "postgres" ? "PostgreSQL" : "PGlite in memory";
    console.log(`\n${args.exports} ${args.format} export(s) of ${MESSAGES} messages on ${database} (load average ${load.toFixed(1)})`);
    for (const [i, d] of done.entries())
      console.log(`  export ${i + 1}: ${(d.bytes / 1e6).toFixed(1)} MB in ${(d.ms / 1000).toFixed(1)} s`);
    console.log(`  GET /robots.txt waited    ${String(robots.length).padStart(5)} asks   ${stats(robots)}`);
    console.log(`  GET /api/user waited      ${String(user.length).padStart(5)} asks   ${stats(user)}`);
    console.log(`  loop held (CPU per 5 ms turn)        ${stats(held)}`);
    console.log(`  server RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB peak, ${after.toFixed(0)} MB 5 s after`);
  } finally {
    server.process.send("stop");
    await new Promise((resolve) => server.process.once("exit", resolve));
  }
}

if (args.serve) await serve();
else if (args.download) await download(args.download, args.cookie, Number(args.exports));
else await main();
