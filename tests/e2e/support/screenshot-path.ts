import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

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

/**
 * The page as it is now in each of `SCREENSHOT_VIEWS`, as `<name>-<width>-<theme>.png`; then back to 1440 px, light.
 */
export async function shootViews(page: Page, name: string) {
  for (const view of SCREENSHOT_VIEWS) {
    await page.setViewportSize({ width: view.width, height: view.width > 400 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: view.theme });
    await page.waitForTimeout(250); // transitions and animations settle
    await page.screenshot({ path: screenshotPath(`${name}-${view.width}-${view.theme}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}
