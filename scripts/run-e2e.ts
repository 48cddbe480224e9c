/**
 * npm run test:e2e: builds the web app (with its prerendered public pages), then runs the browser walks in Debian's Chromium.
 * With no Chromium it says so and how to install it; under CI (CI=true) that is a failure.
 */
import { spawnSync } from "node:child_process";
import { findChromium } from "../tests/e2e/support/chromium-path.js";

const chromium = findChromium();
if (!chromium) {
  const message = [
    "Browser tests need Chromium, and none was found (looked at $CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser).",
    "Install it with:  apt-get update && apt-get install -y chromium",
  ].join("\n");
  if (process.env.CI === "true") {
    console.error(`${message}\nCI=true: failing, browser tests must run in CI.`);
    process.exit(1);
  }
  console.warn(`${message}\nBrowser tests were NOT run.`);
  process.exit(0);
}

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
