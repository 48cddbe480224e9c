/**
 * What the isolation benches share (export-isolation.ts, embedded-isolation.ts): a role of the bench's own file in a
 * process of its own, the other client's timed probe, the server's memory read from /proc, and the waits' summary.
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { percentile } from "./stats.js";

export const PROBE_EVERY_MS = 20;
/** One probe waits at most this long (a server held longer than this is reported as failing, never waited on forever). */
export const ASK_LIMIT_MS = 10 * 60_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A line of /proc/<pid>/status in MB (VmRSS: now, VmHWM: the peak since the start or the last `resetPeakRss`). */
export function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
export const rssMb = (pid: number) => statusMb(pid, "VmRSS");

/** Starts a new peak for VmHWM (Linux: writing 5 to clear_refs); false where the kernel does not allow it. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * The server's memory while something runs: VmRSS sampled every PROBE_EVERY_MS, and VmHWM (the kernel's own peak, which
 * a sample can miss) when it could be reset at the start. `stop()` gives the higher of the two.
 */
export function watchPeakRss(pid: number): { stop: () => number } {
  const hwm = resetPeakRss(pid);
  let peak = rssMb(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, PROBE_EVERY_MS);
  return {
    stop() {
      clearInterval(sampler);
      return Math.max(peak, rssMb(pid), hwm ? statusMb(pid, "VmHWM") : 0);
    },
  };
}

/**
 * Asks `url` every PROBE_EVERY_MS, one at a time, until `until` settles (or `maxAsks`, so a run never loops forever);
 * each wait is timed from when its request was due, so a held server cannot hide behind a late probe.
 */
export async function probe(url: string, headers: Record<string, string>, until: Promise<unknown>, maxAsks = 100_000): Promise<number[]> {
  let done = false;
  void until.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  const waits: number[] = [];
  let due = performance.now();
  while (!done && waits.length < maxAsks) {
    const now = performance.now();
    if (now < due) await sleep(due - now);
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(ASK_LIMIT_MS) }).catch((error: unknown) => {
      throw new Error(`${url}: no answer within ${ASK_LIMIT_MS / 1000} s or the connection failed (${String(error)})`);
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    waits.push(performance.now() - due);
    due += PROBE_EVERY_MS;
    if (due < performance.now()) due = performance.now();
  }
  return waits;
}

/** A child process of the bench file `file` in the given role (tsx, IPC); resolves with its first message. */
export function forkRole(
  file: string,
  role: string[],
  execArgv: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): { process: ChildProcess; first: Promise<unknown> } {
  const started = fork(file, role, { execArgv: ["--import", "tsx", ...execArgv], env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const first = new Promise((resolve, reject) => {
    started.once("message", resolve);
    started.once("exit", (code) => reject(new Error(`${role[0]} exited (${code})`)));
  });
  return { process: started, first };
}

/** The next message of a child process that `accept` takes (others are left to their listeners). */
export function nextMessage<T>(child: ChildProcess, accept: (message: unknown) => message is T): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!accept(message)) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => {
      child.off("message", onMessage);
      reject(new Error(`the child exited (${code}) before it answered`));
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** p50 / p99 / max of waits in ms. */
export function waitStats(values: number[]): { p50: number; p99: number; max: number } {
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : Number.NaN };
}

/** "p50     3.1 ms   p99    40.2 ms   max    88.0 ms" */
export function formatWaits(values: number[]): string {
  const { p50, p99, max } = waitStats(values);
  return `p50 ${p50.toFixed(1).padStart(7)} ms   p99 ${p99.toFixed(1).padStart(7)} ms   max ${max.toFixed(1).padStart(7)} ms`;
}
