import { mkdirSync } from "node:fs";
import path from "node:path";

/** Where a browser walk keeps its screenshots: test-results/screenshots (ignored by git, kept by CI). */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../../test-results/screenshots");

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}

/** The views a changed screen is looked at in: 1440 and 390 px, light and dark (the theme is stored under `ui-theme`). */
export const SCREENSHOT_VIEWS = [
  { width: 1440, theme: "light" },
  { width: 1440, theme: "dark" },
  { width: 390, theme: "light" },
  { width: 390, theme: "dark" },
] as const;
