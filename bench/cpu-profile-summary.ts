/**
 * npx tsx bench/cpu-profile-summary.ts FILE.cpuprofile [TOP] [SKIP_MS]
 * Sums a V8 CPU profile (node --cpu-prof, or bench:stream-overhead --cpu-prof DIR) by where the time was spent:
 * self time per package (node_modules/<name>, or the app's own files, WebAssembly, Node's internals, GC, idle),
 * then the TOP functions by self time. Idle is left out of the shares: they are of the time the thread was busy.
 * SKIP_MS leaves out the profile's first milliseconds (the start: loading modules, migrations); the busy time
 * per second of the whole profile is printed first, to choose it.
 */
import { readFileSync } from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, topArg, skipArg] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-summary FILE.cpuprofile [TOP]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

function placeOf(node: Node): string {
  const { functionName, url } = node.callFrame;
  if (functionName === "(idle)") return "(idle)";
  if (functionName === "(garbage collector)") return "(garbage collector)";
  if (functionName === "(program)") return "(program)";
  if (url.startsWith("wasm://")) return "WebAssembly";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  if (url.startsWith("node:") || url === "") return "node internals";
  return "the app";
}

const skipMs = Number(skipArg ?? 0);
const selfMs = new Map<number, number>();
const busyPerSecond: number[] = [];
let at = 0;
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  at += ms;
  const second = Math.floor(at / 1000);
  if (byId.get(id)?.callFrame.functionName !== "(idle)") busyPerSecond[second] = (busyPerSecond[second] ?? 0) + ms;
  if (at >= skipMs) selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
});
console.log(`busy ms per second: ${Array.from(busyPerSecond, (ms) => (ms ?? 0).toFixed(0)).join(" ")}`);
const byPlace = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  const place = placeOf(node);
  byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"}  ${url.replace(/^.*node_modules\//, "")}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
}
const busy = [...byPlace].filter(([p]) => p !== "(idle)").reduce((a, [, ms]) => a + ms, 0);
const fmt = (ms: number) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%`;
console.log(`busy ${busy.toFixed(0)} ms, idle ${(byPlace.get("(idle)") ?? 0).toFixed(0)} ms`);
for (const [place, ms] of [...byPlace].filter(([p]) => p !== "(idle)").sort((a, b) => b[1] - a[1])) console.log(`${fmt(ms)}  ${place}`);
console.log("");
for (const [fn, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) console.log(`${fmt(ms)}  ${fn}`);
