/**
 * What a first screen costs the browser, in measures that do not depend on how loaded the machine is (issue 29):
 * one navigation under Chromium's performance trace (playwright-core's CDP session, `Tracing`), summed on the
 * page's main thread from the navigation's start to a `performance.mark()` the page sets when the screen shows:
 *   - CPU time of the main thread (the trace's thread time, `tdur`), in all and by kind of work (script
 *     compiling and running, style and layout, paint, HTML parsing, garbage collection);
 *   - its tasks over 50 ms (long tasks) and the longest, in thread time;
 *   - the JavaScript the page compiled before the mark (files and bytes, from the resource timings);
 *   - React's commits before the mark (counted by a stand-in for the devtools hook, `countReactCommits`).
 * Used by bench:sidebar and bench:open-long-chat with --trace.
 */
import { writeFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";

export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; navigationId?: string } };
};

/** Kinds of main-thread work, by trace event name (the first that matches wins; the rest is "other"). */
const KINDS: [string, RegExp][] = [
  ["compile", /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.produceModuleCache|v8\.produceCache|CompileScript|CacheScript)$/],
  ["script", /^(EvaluateScript|v8\.evaluateModule|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute)$/],
  [
    "style and layout",
    /^(UpdateLayoutTree|Layout|RecalculateStyles|ParseAuthorStyleSheet|UpdateLayerTree|IntersectionObserverController::computeIntersections|ResizeObserverController::OnLayoutFinished)$/,
  ],
  ["paint", /^(Paint|PaintImage|PrePaint|Layerize|Commit|CompositeLayers)$/],
  ["HTML", /^ParseHTML$/],
  ["GC", /^(MinorGC|MajorGC|V8\.GC.*|BlinkGC\..*)$/],
];

/** A task of the thread's scheduler: the outermost one is the unit of a long task. */
const isTask = (e: TraceEvent) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";

/** A devtools hook stand-in, installed before the page's scripts: React reports each commit to it. */
export const REACT_COMMITS_SCRIPT = `
  window.__reactCommits = [];
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {},
    onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot() { window.__reactCommits.push(performance.now()); },
  };`;

export async function countReactCommits(context: BrowserContext): Promise<void> {
  await context.addInitScript(REACT_COMMITS_SCRIPT);
}

export interface FirstScreenCost {
  /** Wall time from the navigation's start to the mark (ms), as a check on the trace's alignment. */
  wallMs: number;
  /** CPU time of the page's main thread until the mark (ms), and by kind. */
  cpuMs: number;
  byKind: Record<string, number>;
  longTasks: number;
  longestTaskMs: number;
  scripts: number;
  scriptKiB: number;
  reactCommits: number;
}

/**
 * Navigates with `go` under the trace and waits (through `shown`) until the page has set `performance.mark(mark)`.
 * The context must count React's commits (`countReactCommits`) for `reactCommits` to be more than 0.
 */
export async function traceFirstScreen(page: Page, go: () => Promise<unknown>, mark: string): Promise<FirstScreenCost> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (message) => {
    events.push(...(message.value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: {
      recordMode: "recordAsMuchAsPossible",
      enableSampling: false,
      includedCategories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8",
        "v8.execute",
        "blink.user_timing",
        "loading",
        "toplevel",
        "disabled-by-default-v8.compile",
      ],
    },
  });
  await go();
  await page.waitForFunction((name) => performance.getEntriesByName(name, "mark").length > 0, mark, { timeout: 60_000 });
  const inPage = await page.evaluate((name) => {
    const shown = performance.getEntriesByName(name, "mark")[0]?.startTime ?? Number.NaN;
    const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (e) => e.initiatorType === "script" || e.initiatorType === "link" || /\.m?js(\?|$)/.test(e.name),
    );
    const before = scripts.filter((e) => /\.m?js(\?|$)/.test(new URL(e.name).pathname) && e.startTime < shown);
    const commits = (window as unknown as { __reactCommits?: number[] }).__reactCommits ?? [];
    return {
      shown,
      scripts: before.length,
      bytes: before.reduce((sum, e) => sum + e.decodedBodySize, 0),
      commits: commits.filter((at) => at <= shown).length,
    };
  }, mark);
  await cdp.send("Tracing.end");
  await complete;
  await cdp.detach();
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));

  return summarizeTrace(events, mark, inPage);
}

/** The main thread's cost in a trace, from the mark's navigation to the mark (`inPage`: what the page itself said). */
export function summarizeTrace(
  events: TraceEvent[],
  mark: string,
  inPage: { shown: number; scripts: number; bytes: number; commits: number },
): FirstScreenCost {
  const markEvent = events.find((e) => e.cat.includes("blink.user_timing") && e.name === mark);
  if (!markEvent) throw new Error(`the trace has no mark "${mark}"`);
  const { pid, tid: mainThread } = markEvent;
  // The navigation the mark belongs to (the page's own clock starts there).
  const navigationId = markEvent.args?.data?.navigationId;
  const start =
    events.find((e) => e.pid === pid && e.name === "navigationStart" && navigationId && e.args?.data?.navigationId === navigationId)?.ts ??
    markEvent.ts - inPage.shown * 1000;
  const onMain = events
    .filter((e) => e.pid === pid && e.tid === mainThread && e.ph === "X" && e.ts >= start && e.ts < markEvent.ts)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  // The thread's time (CPU), not the wall's: what the work cost whatever else the machine was doing.
  const cpu = (e: TraceEvent) => (e.tdur ?? 0) / 1000;
  const byKind: Record<string, number> = {};
  const taskCpu: number[] = [];
  // Self time per event: its thread time less that of the events directly inside it; a task's own is "task overhead".
  const stack: { e: TraceEvent; end: number; self: number }[] = [];
  const flush = (item: { e: TraceEvent; self: number }) => {
    const kind = isTask(item.e) ? "task overhead" : (KINDS.find(([, pattern]) => pattern.test(item.e.name))?.[0] ?? "other");
    byKind[kind] = (byKind[kind] ?? 0) + Math.max(0, item.self);
  };
  for (const e of onMain) {
    while (stack.length && (stack.at(-1)?.end ?? 0) <= e.ts) {
      const done = stack.pop();
      if (done) flush(done);
    }
    const parent = stack.at(-1);
    if (parent) parent.self -= cpu(e);
    else if (isTask(e)) taskCpu.push(cpu(e));
    stack.push({ e, end: e.ts + (e.dur ?? 0), self: cpu(e) });
  }
  for (const item of stack) flush(item);
  const cpuMs = taskCpu.reduce((sum, ms) => sum + ms, 0);
  return {
    wallMs: (markEvent.ts - start) / 1000,
    cpuMs,
    byKind,
    longTasks: taskCpu.filter((ms) => ms > 50).length,
    longestTaskMs: Math.max(0, ...taskCpu),
    scripts: inPage.scripts,
    scriptKiB: inPage.bytes / 1024,
    reactCommits: inPage.commits,
  };
}

const KIND_COLUMNS = ["script", "style and layout", "paint", "GC", "compile", "HTML", "other", "task overhead"];

/** Traced runs, one line each, then their medians: main-thread CPU in all and by kind, long tasks, React commits, JS. */
export function printFirstScreenCosts(label: string, costs: FirstScreenCost[]): void {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  const row = (cells: (string | number)[]) =>
    cells.map((cell, i) => (typeof cell === "number" ? cell.toFixed(1) : cell).padStart(i === 0 ? 8 : 10)).join(" ");
  console.log(`${label}: main thread from navigation until it showed (ms of the thread's CPU, except "wall")`);
  console.log(
    row(["run", "wall", "CPU", ...KIND_COLUMNS.map((k) => k.split(" ")[0] ?? k), "tasks>50", "longest", "commits", "JS files", "JS KiB"]),
  );
  const cells = (c: FirstScreenCost) => [
    c.wallMs,
    c.cpuMs,
    ...KIND_COLUMNS.map((k) => c.byKind[k] ?? 0),
    String(c.longTasks),
    c.longestTaskMs,
    String(c.reactCommits),
    String(c.scripts),
    c.scriptKiB,
  ];
  for (const [i, c] of costs.entries()) console.log(row([String(i + 1), ...cells(c)]));
  const columns = costs.map(cells);
  const medians = (columns[0] ?? []).map((_, i) => median(columns.map((cellsOfRun) => Number(cellsOfRun[i]))));
  console.log(`${row(["median", ...medians])}\n`);
}
