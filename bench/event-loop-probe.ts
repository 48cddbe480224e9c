/**
 * Preloaded into a server the benches start (`node --import ./bench/event-loop-probe.ts ... main.js`, with an IPC
 * channel): watches the process's event-loop delay (perf_hooks, a timer every RESOLUTION_MS) and answers the parent
 * over IPC, so the server's own code stays untouched. Plain Node runs it (its types are stripped, no tsx loaded).
 *   "probe:reset"  starts a new window
 *   "probe:read"   answers { probe: { p50, p99, max, mean } } in ms since the last reset, the timer's own period
 *                  taken off (an idle loop reads ~0), and the process's memory (process.memoryUsage())
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

export const RESOLUTION_MS = 10;

const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();

/** Nanoseconds of the histogram as ms of delay beyond the timer's period. */
const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);

process.on("message", (message) => {
  if (message === "probe:reset") histogram.reset();
  else if (message === "probe:read") {
    process.send?.({
      probe: {
        p50: late(histogram.percentile(50)),
        p99: late(histogram.percentile(99)),
        max: late(histogram.max),
        mean: late(histogram.mean),
        memory: process.memoryUsage(),
      },
    });
  }
});
// The channel alone must never keep the server alive (SIGTERM ends it as usual).
process.channel?.unref();
