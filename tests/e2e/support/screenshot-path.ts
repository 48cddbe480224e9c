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

/** A view of `SCREENSHOT_VIEWS`. */
export type ScreenshotView = (typeof SCREENSHOT_VIEWS)[number];

/**
 * Waits until the page has drawn what it will draw: a frame for a change of size or theme to start its transitions, then
 * every finite animation and transition over (a spinner's endless one is left turning), then a frame drawn after them.
 */
export async function settled(page: Page): Promise<void> {
  const frame = () =>
    page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await frame();
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity),
  );
  await frame();
}

/**
 * The page as it is now in each of `SCREENSHOT_VIEWS`, as `<name>-<width>-<theme>.png` (the whole page with
 * `fullPage`), `inEach` run in each view after its picture; then back to `back` (1440 x 900), light.
 */
export async function shootViews(
  page: Page,
  name: string,
  options: { fullPage?: boolean; inEach?: (view: ScreenshotView) => Promise<void>; back?: { width: number; height: number } } = {},
) {
  for (const view of SCREENSHOT_VIEWS) {
    await page.setViewportSize({ width: view.width, height: view.width > 400 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: view.theme });
    await settled(page);
    await page.screenshot({ path: screenshotPath(`${name}-${view.width}-${view.theme}.png`), fullPage: options.fullPage });
    await options.inEach?.(view);
  }
  await page.setViewportSize(options.back ?? { width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}
