import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { CHROMIUM_ARGS } from "../tests/e2e/support/harness.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { LAST_MESSAGE_TEXT } from "../tests/helpers/seed-long-chat.js";
import { buildCompiledServer, type RunningServer, spawnServer } from "../tests/helpers/spawn-server.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { CHATS, FOLDERS, LONG_CHAT_MESSAGES, seedManyChats } from "./seed-many-chats.js";
import { cpuSeconds, median } from "./stats.js";
import { benchChromium, benchWebBuild } from "./web-build.js";

const WARM_RUNS = Number(process.env.WARM_RUNS ?? 7);
const SIDEBAR_TARGET_MS = 200;
const LONG_CHAT_TARGET_MS = 300;
const SIDEBAR_ROW = '[aria-label="Chats"] [data-chat-id]';

const { values: args } = parseArgs({
  options: {
    outDir: { type: "string" },
    "no-build": { type: "boolean", default: false },
    waterfall: { type: "boolean", default: false },
    "in-process": { type: "boolean", default: false },
    /** The server's CPU per request for each address the page read (and the document), asked one at a time. */
    "per-request": { type: "boolean", default: false },
  },
});
const webDist = benchWebBuild("first-screens", { outDir: args.outDir, noBuild: args["no-build"] });
const executablePath = benchChromium();

const onPostgres = process.env.BENCH_DB === "postgres";
const scratch = onPostgres ? await createScratchPostgres() : undefined;
const dataDir = onPostgres ? undefined : mkdtempSync(path.join(tmpdir(), "bench-first-screens-data-"));
const serverArgs = buildCompiledServer("first-screens");
const serverEnv = { LOG_LEVEL: "warn", WEB_DIST: webDist, ...(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir ?? "" }) };

async function stop(server: RunningServer) {
  server.child.kill("SIGTERM");
  await server.exited;
}

/** Registers the account through the running server (the first one: an admin), then seeds with the server stopped. */
async function prepare(account: ReturnType<typeof newAccount>): Promise<number> {
  const first = await spawnServer(serverEnv, serverArgs);
  const registered = await fetch(`${first.url}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const { id } = (await registered.json()) as { id: number };
  await stop(first);
  const database = await openDatabase(scratch ? { url: scratch.url } : { pgliteDir: path.join(dataDir ?? "", "pglite") });
  try {
    return await seedManyChats(database, id);
  } finally {
    await database.close();
  }
}

type Shown = "sidebar" | "newest";

/** The driver's own check, in the page: whether FIRST_FRAMES has seen it yet (the time it asks is when the driver sees it). */
const SHOWN = (kind: Shown) =>
  (window as unknown as { __firstShown?: Record<string, number> }).__firstShown?.[kind] ? performance.now() : 0;

/** In the page from its start (an init script): the first animation frame where each thing shows, in the page's clock. */
const FIRST_FRAMES = ({ row, lastText }: { row: string; lastText: string }) => {
  const seen: Record<string, number> = {};
  (window as unknown as { __firstShown: Record<string, number> }).__firstShown = seen;
  const check = () => {
    const now = performance.now();
    if (!seen.sidebar && document.querySelector(row)) seen.sidebar = now;
    if (!seen.newest) {
      const all = document.querySelectorAll("[data-message-role]");
      const last = all[all.length - 1];
      const rect = last?.textContent?.includes(lastText) ? last.getBoundingClientRect() : undefined;
      if (rect && rect.bottom > 0 && rect.top < window.innerHeight) seen.newest = now;
    }
    if (!seen.sidebar || !seen.newest) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

interface Run {
  /** The driver's clock, from the call of goto. */
  driver: number;
  /** The page's clock (from navigation start) when the driver's check saw it. */
  page: number;
  /** The page's clock at the first animation frame where it showed. */
  frame: number;
}

/** `runs` navigations to `url`: the driver's time from the call of `goto` until it shows, and the page's own. */
async function measure(page: Page, url: string, kind: Shown, runs: number) {
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await page.goto(url, { waitUntil: "commit" });
    const inPage = await page.waitForFunction(SHOWN, kind, { polling: "raf", timeout: 60_000 });
    const driver = performance.now() - started;
    const frame = await page.evaluate(
      (k) => (window as unknown as { __firstShown: Record<string, number> }).__firstShown?.[k] ?? Number.NaN,
      kind,
    );
    results.push({ driver, page: Number(await inPage.jsonValue()), frame });
    await inPage.dispose();
  }
  return results;
}

/** The last run's waterfall: the document, then every resource by start time (ms from navigation start). */
async function printWaterfall(page: Page, label: string) {
  const entries = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const rows = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map((e) => ({
      name: new URL(e.name).pathname + new URL(e.name).search,
      start: e.startTime,
      end: e.responseEnd,
      size: e.encodedBodySize,
    }));
    return [{ name: "(document)", start: nav?.requestStart ?? 0, end: nav?.responseEnd ?? 0, size: nav?.encodedBodySize ?? 0 }, ...rows];
  });
  console.log(`${label}: the last warm run's waterfall (ms from navigation start)`);
  for (const e of entries.sort((a, b) => a.start - b.start))
    console.log(`  ${e.start.toFixed(1).padStart(7)} → ${e.end.toFixed(1).padStart(7)}  ${String(e.size).padStart(7)} B  ${e.name}`);
}

/** --in-process: the app built in this process (as bench:sidebar runs it) on the same database, to compare. */
async function inProcess(): Promise<RunningServer> {
  const database = await openDatabase(scratch ? { url: scratch.url } : { pgliteDir: path.join(dataDir ?? "", "pglite") });
  const app = await buildApp({ config: testConfig({ WEB_DIST: webDist }), database, logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  let exit: (code: number) => void = () => {};
  const exited = new Promise<number | null>((resolve) => {
    exit = resolve;
  });
  const child = {
    kill: () =>
      void app
        .close()
        .then(() => database.close())
        .then(() => exit(0)),
  } as unknown as RunningServer["child"];
  return { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, child, exited, output: () => "" };
}

/**
 * The server's CPU per request (ms) for the page's own document and each API address it read in its last run, asked
 * REPEATS times one after the other with the page's cookies: which of a first screen's requests the server pays for.
 */
async function printCpuPerRequest(page: Page, serverCpu: () => number) {
  const REPEATS = 30;
  const urls = await page.evaluate(() => [
    location.href,
    ...new Set(
      (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .map((e) => e.name)
        .filter((name) => new URL(name).pathname.startsWith("/api/")),
    ),
  ]);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  console.log(
    `\nThe server's CPU per request, ${REPEATS} asked one after the other (10 ms steps of /proc, so ±${(10 / REPEATS).toFixed(1)} ms):`,
  );
  for (const url of urls) {
    await (await fetch(url, { headers: { cookie } })).arrayBuffer();
    const before = serverCpu();
    const started = performance.now();
    for (let i = 0; i < REPEATS; i++) await (await fetch(url, { headers: { cookie } })).arrayBuffer();
    const wall = (performance.now() - started) / REPEATS;
    console.log(
      `  ${((serverCpu() - before) / REPEATS).toFixed(1).padStart(6)} ms CPU  ${wall.toFixed(1).padStart(6)} ms wall  ${new URL(url).pathname}${new URL(url).search}`,
    );
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
/**
 * What a person waits: from the call of goto (the press of Enter) to the first frame that shows it. The page's clock
 * starts at navigation start, so the part before it is taken from the driver's: its time less the page's when it saw it.
 */
const waited = (run: Run) => run.frame + (run.driver - run.page);
const summary = (runs: Run[]) =>
  `${ms(median(runs.map(waited)))} (runs ${runs.map((r) => waited(r).toFixed(0)).join(", ")}; in the page's clock ${ms(median(runs.map((r) => r.frame)))}; the driver's check saw it at ${ms(median(runs.map((r) => r.driver)))})`;

const account = newAccount();
const longId = await prepare(account);
const server = args["in-process"] ? await inProcess() : await spawnServer(serverEnv, serverArgs);
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const login = await context.request.post(`${server.url}/api/login`, { data: { username: account.username, password: account.password } });
  if (login.status() !== 200) throw new Error(`login: ${login.status()}`);
  // tsx keeps function names with a `__name` helper that the page does not have: the page gets a no-op one.
  await context.addInitScript("window.__name = (fn) => fn;");
  await context.addInitScript(FIRST_FRAMES, { row: SIDEBAR_ROW, lastText: LAST_MESSAGE_TEXT });
  const page = await context.newPage();
  const [sidebarCold] = await measure(page, `${server.url}/chat`, "sidebar", 1);
  const serverCpu = () => cpuSeconds(server.child.pid ?? process.pid) * 1000;
  let before = serverCpu();
  const sidebarWarm = await measure(page, `${server.url}/chat`, "sidebar", WARM_RUNS);
  const sidebarCpu = (serverCpu() - before) / WARM_RUNS;
  if (args.waterfall) await printWaterfall(page, "/chat");
  const [longCold] = await measure(page, `${server.url}/chat/${longId}`, "newest", 1);
  before = serverCpu();
  const longWarm = await measure(page, `${server.url}/chat/${longId}`, "newest", WARM_RUNS);
  const longCpu = (serverCpu() - before) / WARM_RUNS;
  if (args.waterfall) await printWaterfall(page, "/chat/{id}");
  if (args["per-request"]) await printCpuPerRequest(page, serverCpu);
  const sidebar = median(sidebarWarm.map(waited));
  const long = median(longWarm.map(waited));
  console.log(
    `The compiled server on ${onPostgres ? "PostgreSQL" : "PGlite in a data folder"}; ${CHATS.toLocaleString()} chats in ${FOLDERS} folders and one of ${LONG_CHAT_MESSAGES.toLocaleString()} messages; the driver's clock from goto\n`,
  );
  console.log(`/chat, first sidebar row, cold: ${sidebarCold ? summary([sidebarCold]) : "-"}`);
  console.log(`/chat, first sidebar row, warm median of ${WARM_RUNS}: ${summary(sidebarWarm)}   target < ${SIDEBAR_TARGET_MS} ms`);
  console.log(`/chat/{id}, newest message, cold: ${longCold ? summary([longCold]) : "-"}`);
  console.log(`/chat/{id}, newest message, warm median of ${WARM_RUNS}: ${summary(longWarm)}   target < ${LONG_CHAT_TARGET_MS} ms`);
  console.log(
    `\nThe server's CPU per warm run (user + system, all its threads; the document and every request the page made in the run, also those after the mark): /chat ${ms(sidebarCpu)}, /chat/{id} ${ms(longCpu)}${args["in-process"] ? " (in process: includes this bench's own work)" : ""}`,
  );
  const pass = sidebar < SIDEBAR_TARGET_MS && long < LONG_CHAT_TARGET_MS;
  console.log(`\n${pass ? "PASS" : "OVER TARGET"}: both warm medians against their targets`);
} finally {
  await browser.close();
  await stop(server);
  await scratch?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
