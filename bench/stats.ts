import { readFileSync } from "node:fs";

/** The benches' one percentile: the value at `p` percent of the sorted values (nearest rank, rounded down); NaN when empty. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The middle value (the upper one of an even count), as `percentile(values, 50)`. */
export const median = (values: number[]): number => percentile(values, 50);

/** CPU seconds (user + system, all its threads) the process `pid` has used so far, from /proc (10 ms steps). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
