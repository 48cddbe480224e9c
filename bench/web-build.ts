import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findChromium } from "../tests/e2e/support/chromium-path.js";

/**
 * The web build a browser bench serves: `outDir`, else WEB_DIST, else a fresh temporary folder (never dist/web, which a
 * running server may be serving), built there as `npm run build` builds it (the client, then the prerendered public
 * pages) unless `noBuild`. Exits the process when a build step fails.
 */
export function benchWebBuild(name: string, options: { outDir?: string; noBuild?: boolean }): string {
  const webDist = path.resolve(options.outDir ?? process.env.WEB_DIST ?? mkdtempSync(path.join(tmpdir(), `bench-${name}-web-`)));
  if (!options.noBuild) {
    for (const command of [
      ["vite", "build", "--logLevel", "warn", "--outDir", webDist],
      ["tsx", "scripts/prerender.ts", "--outDir", webDist],
    ]) {
      if (spawnSync("npx", command, { stdio: "inherit" }).status !== 0) process.exit(1);
    }
  }
  return webDist;
}

/** Debian's Chromium, which every browser bench drives; a clear error when it is missing. */
export function benchChromium(): string {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("Chromium not found: apt-get update && apt-get install -y chromium");
  return executablePath;
}
