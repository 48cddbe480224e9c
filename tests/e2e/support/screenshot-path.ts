import { mkdirSync } from "node:fs";
import path from "node:path";

/** Where a browser walk keeps its screenshots: test-results/screenshots (ignored by git, kept by CI). */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../../test-results/screenshots");

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}
