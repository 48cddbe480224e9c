/**
 * npm run bench:bundle
 * Gzip size of the JavaScript the browser downloads for the first screen of
 * /auth (signed out) and of / (signed in: the dashboard), measured by loading
 * the built app in Chromium and adding up every script it fetched.
 */
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { findChromium } from "../tests/e2e/support/chromium-path.js";
import { CHROMIUM_ARGS } from "../tests/e2e/support/harness.js";
import { testConfig } from "../tests/helpers/build-test-app.js";

const AUTH_BUDGET_KIB = 120;

const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
if (build.status !== 0) process.exit(1);

const executablePath = findChromium();
if (!executablePath) throw new Error("Chromium not found: apt-get update && apt-get install -y chromium");

const database = await openDatabase({});
const app = await buildApp({ config: testConfig(), database, logger: false });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });

async function scriptsFor(page: Page, path: string) {
  const scripts = new Map<string, number>();
  const listener = async (response: import("playwright-core").Response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).byteLength);
  };
  page.on("response", listener);
  await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
  page.off("response", listener);
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  return { total, scripts };
}

const report = (label: string, result: { total: number; scripts: Map<string, number> }) => {
  console.log(`${label}: ${(result.total / 1024).toFixed(1)} KiB gzip in ${result.scripts.size} scripts`);
  for (const [file, size] of [...result.scripts].sort((a, b) => b[1] - a[1]))
    console.log(`   ${(size / 1024).toFixed(1).padStart(6)} KiB  ${file}`);
};

try {
  const signedOut = await (await browser.newContext()).newPage();
  const auth = await scriptsFor(signedOut, "/auth");
  report("/auth (signed out)", auth);

  const context = await browser.newContext();
  const id = Date.now().toString(36);
  const register = await context.request.post(`${baseUrl}/api/register`, {
    data: { username: `bundle${id}`, name: "Bundle Bench", email: `bundle${id}@example.com`, password: "Str0ng!pass", planType: "free" },
  });
  if (register.status() !== 201) throw new Error(`register: ${register.status()}`);
  const dashboard = await scriptsFor(await context.newPage(), "/");
  report("/ (signed in, dashboard)", dashboard);

  const kib = auth.total / 1024;
  console.log(`\n/auth budget ${AUTH_BUDGET_KIB} KiB: ${kib <= AUTH_BUDGET_KIB ? "within" : "OVER"} (${kib.toFixed(1)} KiB)`);
  if (kib > AUTH_BUDGET_KIB) process.exitCode = 1;
} finally {
  await browser.close();
  await app.close();
  await database.close();
}
