import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { chromium, type Page } from "playwright-core";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { CHROMIUM_ARGS } from "../tests/e2e/support/harness.js";
import { newAccount, testConfig } from "../tests/helpers/build-test-app.js";
import { LAST_MESSAGE_TEXT, seedLongChat } from "../tests/helpers/seed-long-chat.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { countReactCommits, printFirstScreenCosts, traceFirstScreen } from "./first-screen-trace.js";
import { median } from "./stats.js";
import { benchChromium, benchWebBuild } from "./web-build.js";

const MESSAGES = 2_000;
const CODE_EVERY = 10;
const WARM_RUNS = Number(process.env.WARM_RUNS ?? 7);
const TARGET_MS = 300;
const TRACED_RUNS = Number(process.env.TRACED_RUNS ?? 5);

const { values: args } = parseArgs({
  options: {
    outDir: { type: "string" },
    "no-build": { type: "boolean", default: false },
    trace: { type: "boolean", default: false },
    timeline: { type: "boolean", default: false },
  },
});
const webDist = benchWebBuild("long-chat", { outDir: args.outDir, noBuild: args["no-build"] });
const executablePath = benchChromium();

const scratch = process.env.BENCH_DB === "postgres" ? await createScratchPostgres() : undefined;
const database = await openDatabase(scratch ? { url: scratch.url } : {});
const app = await buildApp({ config: testConfig({ WEB_DIST: webDist }), database, logger: false });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });

/** Marks the first animation frame where the newest message is in the viewport. */
const MARK_SCRIPT = (lastText: string) => {
  const check = () => {
    const all = document.querySelectorAll("[data-message-role]");
    const last = all[all.length - 1];
    if (last?.textContent?.includes(lastText)) {
      const rect = last.getBoundingClientRect();
      if (rect.bottom > 0 && rect.top < window.innerHeight) {
        (window as unknown as { __shown: number }).__shown = performance.now();
        performance.mark("last-message-shown");
        return;
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

/**
 * --timeline: what each warm run waited for, in the page's clock: when the session, the chat, its messages and the
 * Markdown chunk arrived, when React committed, and when a message element and a loading spinner were first in the page.
 */
const TIMELINE_SCRIPT = () => {
  const seen: Record<string, number> = {};
  (window as unknown as { __seen: Record<string, number> }).__seen = seen;
  new MutationObserver(() => {
    const now = performance.now();
    for (const spinner of document.querySelectorAll('[role="status"]')) {
      const key = `spinner "${spinner.textContent}"`;
      seen[key] ??= now;
    }
    if (!seen.message && document.querySelector("[data-message-role]")) seen.message = now;
    if (!seen.markdown && document.querySelector("[data-message-role] .markdown, [data-message-role] pre")) seen.markdown = now;
  }).observe(document, { subtree: true, childList: true });
};

async function timelineOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const at = (pattern: RegExp) => {
      const entry = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) => pattern.test(e.name));
      return entry ? `${entry.startTime.toFixed(0)}→${entry.responseEnd.toFixed(0)}` : "-";
    };
    const w = window as unknown as { __seen: Record<string, number>; __reactCommits?: number[]; __shown: number };
    const ms = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(0));
    return [
      `session ${at(/\/api\/session/)}`,
      `chat ${at(/\/api\/chats\/\d+$/)}`,
      `messages ${at(/\/api\/chats\/\d+\/messages/)}`,
      `markdown.js ${at(/\/markdown-[^/]*\.js$/)}`,
      ...Object.entries(w.__seen)
        .filter(([key]) => key.startsWith("spinner"))
        .map(([key, at]) => `${key} ${ms(at)}`),
      `first message ${ms(w.__seen.message)}`,
      `markdown drawn ${ms(w.__seen.markdown)}`,
      `commits ${(w.__reactCommits ?? []).map((t) => t.toFixed(0)).join(",")}`,
      `shown ${ms(w.__shown)}`,
    ].join(" | ");
  });
}

async function open(page: Page, chatId: number): Promise<{ shown: number; nodes: number }> {
  await page.goto(`${baseUrl}/chat/${chatId}`);
  await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown, undefined, { timeout: 60_000 });
  return page.evaluate(() => ({
    shown: (window as unknown as { __shown: number }).__shown,
    nodes: document.querySelectorAll("[data-message-role]").length,
  }));
}

try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const register = await context.request.post(`${baseUrl}/api/register`, { data: newAccount() });
  if (register.status() !== 201) throw new Error(`register: ${register.status()}`);
  const chatId = await seedLongChat(database, ((await register.json()) as { id: number }).id, MESSAGES, CODE_EVERY);
  await database.db.execute(sql`analyze`);
  // tsx keeps function names with a `__name` helper that the page does not have: the page gets a no-op one.
  await context.addInitScript("window.__name = (fn) => fn;");
  await context.addInitScript(MARK_SCRIPT, LAST_MESSAGE_TEXT);
  if (args.trace || args.timeline) await countReactCommits(context);
  if (args.timeline) await context.addInitScript(TIMELINE_SCRIPT);
  const page = await context.newPage();
  const cold = await open(page, chatId);
  const warm: number[] = [];
  let nodes = cold.nodes;
  for (let i = 0; i < WARM_RUNS; i++) {
    const run = await open(page, chatId);
    warm.push(run.shown);
    nodes = run.nodes;
    if (args.timeline) console.log(`warm ${i + 1}: ${await timelineOf(page)}`);
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`open a chat of ${MESSAGES} messages (newest visible): cold ${ms(cold.shown)}, warm ${warm.map(ms).join(", ")}`);
  console.log(`warm median ${ms(median(warm))} (target < ${TARGET_MS} ms); message elements in the page: ${nodes} of ${MESSAGES}`);
  console.log(median(warm) < TARGET_MS ? "PASS" : "OVER TARGET");
  if (args.trace) {
    const costs = [];
    for (let i = 0; i < TRACED_RUNS; i++) {
      costs.push(await traceFirstScreen(page, () => page.goto(`${baseUrl}/chat/${chatId}`), "last-message-shown"));
    }
    printFirstScreenCosts(`\nnewest message shown, ${TRACED_RUNS} more warm runs traced`, costs);
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  await scratch?.drop();
}
