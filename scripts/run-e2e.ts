/**
 * npm run test:e2e: builds the web app (with its prerendered public pages), then runs the browser walks in Debian's Chromium.
 * Browser tests that cannot run (no Chromium) fail the run, said in red; `SKIP_E2E=1` skips them on purpose, except
 * under CI (CI=true), where they must run (tests/e2e/support/e2e-gate.ts).
 */
import { spawnSync } from "node:child_process";
import { styleText } from "node:util";
import { findChromium } from "../tests/e2e/support/chromium-path.js";
import { e2eGate } from "../tests/e2e/support/e2e-gate.js";

const gate = e2eGate(process.env, findChromium());
if (!gate.run) {
  console.error(styleText("red", gate.message, { stream: process.stderr }));
  process.exit(gate.exitCode);
}
const { chromium } = gate;

const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, CHROMIUM_PATH: chromium } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
// The production build: the client, then the prerendered public pages. Into WEB_DIST when set (the harness
// serves that folder), else dist/web.
const outDir = process.env.WEB_DIST ? ["--outDir", process.env.WEB_DIST] : [];
run("npx", ["vite", "build", "--logLevel", "warn", ...outDir]);
run("npx", ["tsx", "scripts/prerender.ts", ...outDir]);
run("npx", ["vitest", "run", "--config", "vitest.e2e.config.ts", ...process.argv.slice(2)]);
