/**
 * npm run bench:bundle [-- --outDir <dir>] [-- --no-build]
 * Gzip size of the JavaScript the browser downloads for the first screen, measured by loading the built
 * app in Chromium and adding up every script it fetched: /auth (signed out), every public page (signed out: the
 * prerendered pages, issue 13), the catalogue and a course's landing page (signed out, rendered at request time, issue 33), / (signed in: the dashboard) and /chat (signed in). It fails (exit code 1) when
 * /auth is over 100 KiB, a public or catalogue page over 100 KiB or /chat over 200 KiB (issue 15; decision 065).
 *
 * It builds with the prerendering build (npm run build's two steps) into --outDir, else WEB_DIST, else a
 * fresh temporary folder (never dist/web, which a running server may be serving). --no-build measures the
 * build already in that folder.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { buildApp } from "../src/server/app.js";
import { openDatabase } from "../src/server/db/client.js";
import { courseSlug } from "../src/shared/catalog-slug.js";
import { PUBLIC_PAGES } from "../src/shared/public-pages.js";
import { findChromium } from "../tests/e2e/support/chromium-path.js";
import { CHROMIUM_ARGS } from "../tests/e2e/support/harness.js";
import { testConfig } from "../tests/helpers/build-test-app.js";

const AUTH_BUDGET_KIB = 100;
const PUBLIC_BUDGET_KIB = 100;
const CHAT_BUDGET_KIB = 200;

const { values: args } = parseArgs({ options: { outDir: { type: "string" }, "no-build": { type: "boolean", default: false } } });
const webDist = path.resolve(args.outDir ?? process.env.WEB_DIST ?? mkdtempSync(path.join(tmpdir(), "bench-bundle-web-")));

if (!args["no-build"]) {
  for (const command of [
    ["vite", "build", "--logLevel", "warn", "--outDir", webDist],
    ["tsx", "scripts/prerender.ts", "--outDir", webDist],
  ]) {
    const step = spawnSync("npx", command, { stdio: "inherit" });
    if (step.status !== 0) process.exit(1);
  }
}

const executablePath = findChromium();
if (!executablePath) throw new Error("Chromium not found: apt-get update && apt-get install -y chromium");

const database = await openDatabase({});
const app = await buildApp({ config: testConfig({ WEB_DIST: webDist }), database, logger: false });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });

interface Measure {
  total: number;
  scripts: Map<string, number>;
}

async function scriptsFor(page: Page, pagePath: string): Promise<Measure> {
  const scripts = new Map<string, number>();
  const reading: Promise<void>[] = [];
  const listener = (response: import("playwright-core").Response) => {
    if (response.request().resourceType() !== "script") return;
    reading.push(
      response
        .body()
        .catch(() => Buffer.alloc(0))
        .then((body) => void scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).byteLength)),
    );
  };
  page.on("response", listener);
  await page.goto(`${baseUrl}${pagePath}`, { waitUntil: "networkidle" });
  page.off("response", listener);
  // Every body read to the end, or a script still being read would be left out of the sum.
  await Promise.all(reading);
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  return { total, scripts };
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

const report = (label: string, result: Measure) => {
  console.log(`${label}: ${kib(result.total)} KiB gzip in ${result.scripts.size} scripts`);
  for (const [file, size] of [...result.scripts].sort((a, b) => b[1] - a[1])) console.log(`   ${kib(size).padStart(6)} KiB  ${file}`);
};

try {
  console.log(`Measuring the build in ${webDist}\n`);
  const signedOut = await browser.newContext();
  const auth = await scriptsFor(await signedOut.newPage(), "/auth");
  report("/auth (signed out)", auth);

  const publicPages: { path: string; measure: Measure }[] = [];
  for (const page of PUBLIC_PAGES) {
    // A fresh profile per page: nothing cached from the page before, as a visitor arriving from a search.
    const context = await browser.newContext();
    const measure = await scriptsFor(await context.newPage(), page.path);
    await context.close();
    publicPages.push({ path: page.path, measure });
    report(`${page.path} (signed out, public page)`, measure);
  }

  const context = await browser.newContext();
  const id = Date.now().toString(36);
  const register = await context.request.post(`${baseUrl}/api/register`, {
    data: { username: `bundle${id}`, name: "Bundle Bench", email: `bundle${id}@example.com`, password: "Str0ng!pass", planType: "free" },
  });
  if (register.status() !== 201) throw new Error(`register: ${register.status()}`);
  const dashboard = await scriptsFor(await context.newPage(), "/");
  report("/ (signed in, dashboard)", dashboard);
  // A fresh profile: the chat's first screen as someone opening it from a bookmark, nothing cached.
  const chatContext = await browser.newContext({ storageState: await context.storageState() });
  const chat = await scriptsFor(await chatContext.newPage(), "/chat");
  await chatContext.close();
  report("/chat (signed in)", chat);

  // The catalogue's two pages (issue 33), rendered by the server at request time: a course in it first, then each page
  // in a fresh signed-out profile, as a visitor arriving from a search.
  const made = await context.request.post(`${baseUrl}/api/courses`, {
    data: { title: "Bundle Bench Course", description: "A course to measure the catalogue with.", isPublic: true, status: "published" },
  });
  if (made.status() !== 201) throw new Error(`course: ${made.status()}`);
  const courseId = ((await made.json()) as { id: number }).id;
  const catalogPages: { path: string; measure: Measure }[] = [];
  for (const pagePath of ["/catalog", `/catalog/${courseSlug("Bundle Bench Course", courseId)}`]) {
    const visitor = await browser.newContext();
    const measure = await scriptsFor(await visitor.newPage(), pagePath);
    await visitor.close();
    catalogPages.push({ path: pagePath, measure });
    report(`${pagePath} (signed out, catalogue)`, measure);
  }

  console.log("\nBudgets (first-screen JS, gzip):");
  let over = false;
  const budget = (label: string, measure: Measure, limitKib: number) => {
    const within = measure.total / 1024 <= limitKib;
    over ||= !within;
    console.log(`  ${label.padEnd(18)} ${kib(measure.total).padStart(6)} KiB of ${limitKib}: ${within ? "within" : "OVER"}`);
  };
  budget("/auth", auth, AUTH_BUDGET_KIB);
  for (const { path: pagePath, measure } of [...publicPages, ...catalogPages]) budget(pagePath, measure, PUBLIC_BUDGET_KIB);
  budget("/chat", chat, CHAT_BUDGET_KIB);
  if (over) {
    console.log("\nOver budget: see the scripts listed above for what the first screen loads.");
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
}
