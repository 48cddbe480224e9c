import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * The server's idle memory (issue 15: ≤ 150 MB on PostgreSQL, ≤ 250 MB on PGlite; bench/memory). What cannot be
 * done from here is in package.json's `serve` script, the way `npm start` runs the server:
 * - `--max-semi-space-size=8`: V8's young generation grows to 2 × 8 MB under load instead of 2 × 16 MB;
 * - `--liftoff-only`: PGlite is PostgreSQL compiled to WebAssembly. V8 compiles it with its baseline compiler
 *   (Liftoff), then recompiles the functions that run often with its optimising one (TurboFan), which keeps about
 *   65 MB more resident. Liftoff only spends none of that, for queries about 10-25% slower in a micro-benchmark
 *   (3,000 inserts 490 → 540 ms, 3,000 indexed reads 930 → 1,060 ms). A deployment that needs the speed runs on
 *   PostgreSQL (DATABASE_URL), where the only WebAssembly is Node's HTTP parser for outgoing calls. The flag has
 *   to be given at start: V8 ignores it when set once running.
 * The tests and the benches that build the app in-process keep V8's defaults.
 */

/**
 * One full collection, of the kind V8 runs before it gives up for lack of memory, once the server is up: loading
 * the modules, compiling the routes' schemas and the migrations leave garbage that V8 would keep until traffic
 * makes it collect, and a young generation grown to its maximum by the start. This one hands the freed pages
 * back to the system: about 40 MB less at idle. Node's documented way to reach `gc` without --expose-gc.
 */
export function collectStartupGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
}
