import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import pixelmatch from "pixelmatch";
import type { Locator, Page } from "playwright-core";
import { PNG } from "pngjs";
import { SCREENSHOT_VIEWS, type ScreenshotView, settled } from "./screenshot-path.js";

// Issue 44, "Screens nobody compares": a screen's picture in each view, compared with the baseline PNG committed under
// tests/e2e/baselines (decision 076). A pixel differs when pixelmatch's colour distance says so at `PIXEL_THRESHOLD`,
// anti-aliased pixels left out; a view fails when more than `MAX_DIFF_SHARE` of its pixels differ.

/** The committed baselines: `<screen>-<width>-<theme>.png`. */
export const BASELINE_DIR = path.resolve(import.meta.dirname, "../baselines");
/** What a failed comparison leaves (ignored by git, kept by CI): `<name>.actual.png`, `<name>.diff.png`, and `shares.jsonl`. */
export const VISUAL_RESULTS_DIR = path.resolve(import.meta.dirname, "../../../test-results/visual");

/** pixelmatch's per-pixel colour threshold (0 exact .. 1 anything goes). */
export const PIXEL_THRESHOLD = 0.1;
/**
 * The share of a view's pixels allowed to differ (0.2 %). Measured (decision 076), at `PIXEL_THRESHOLD`: four runs on an
 * unchanged build (two builds), 96 pictures, at a load of 15 to 18 on 2 cores: 0 pixels differed in every one. Layout
 * breaks: the chat's history rail 32 px narrower moved 0.74 % (citation panel, 1440) to 1.23 % (chat, 1440 dark);
 * the card header's padding removed 2.25 % to 3.17 % (course editor). The limit sits far above the noise and under a
 * third of the smallest break.
 */
export const MAX_DIFF_SHARE = 0.002;

/** `UPDATE_BASELINES=1` (npm run test:visual:update) writes the pictures as the new baselines instead of comparing. */
const updating = process.env.UPDATE_BASELINES === "1";

/** A view whose picture does not match its baseline, in words fit for a failure message. */
export interface Mismatch {
  name: string;
  message: string;
}

export interface ScreenOptions {
  /** Boxes painted over before the picture is taken (volatile text the seed cannot fix). */
  mask?: (page: Page) => Locator[];
  /**
   * Runs in each view once its size and theme are set, before the page is waited for and shot: a screen whose layout is
   * chosen once, when it mounts, for the width it has then (the admin menu starts collapsed below 1024 px) loads again.
   */
  inView?: (view: ScreenshotView) => Promise<void>;
}

/**
 * The page drawn whole in `view`: the theme on <html> (the app puts it there in an effect after the OS preference
 * changes), fonts loaded, every image decoded, the finite animations over (`settled`), then three frames in a row with
 * nothing changed in the document and no finite animation running (a width's own components mount a moment later).
 */
async function drawn(page: Page, view: ScreenshotView): Promise<void> {
  await page.waitForFunction((theme) => document.documentElement.classList.contains(theme), view.theme);
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].map((image) => (image.complete ? undefined : image.decode().catch(() => undefined))));
  });
  await settled(page);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let changed = false;
        let quiet = 0;
        const observer = new MutationObserver(() => {
          changed = true;
        });
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const running = () =>
          document
            .getAnimations()
            .some((animation) => animation.playState === "running" && animation.effect?.getComputedTiming().iterations !== Infinity);
        const give = setTimeout(() => finish(), 5_000);
        const finish = () => {
          clearTimeout(give);
          observer.disconnect();
          resolve();
        };
        const frame = () => {
          quiet = changed || running() ? 0 : quiet + 1;
          changed = false;
          if (quiet >= 3) finish();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

function readPng(file: string): PNG {
  return PNG.sync.read(readFileSync(file));
}

/**
 * Compares one picture with its baseline; undefined when it matches (or was written as the baseline under
 * UPDATE_BASELINES=1), else what is wrong, with the actual picture and the difference written beside each other.
 */
export function compareWithBaseline(name: string, actual: Buffer): Mismatch | undefined {
  const baselineFile = path.join(BASELINE_DIR, `${name}.png`);
  if (updating) {
    mkdirSync(BASELINE_DIR, { recursive: true });
    writeFileSync(baselineFile, actual);
    return undefined;
  }
  mkdirSync(VISUAL_RESULTS_DIR, { recursive: true });
  const actualFile = path.join(VISUAL_RESULTS_DIR, `${name}.actual.png`);
  const relative = (file: string) => path.relative(process.cwd(), file);
  if (!existsSync(baselineFile)) {
    writeFileSync(actualFile, actual);
    return {
      name,
      message: `${name}: no baseline at ${relative(baselineFile)} (the picture is at ${relative(actualFile)}; npm run test:visual:update writes it)`,
    };
  }
  const expected = readPng(baselineFile);
  const got = PNG.sync.read(actual);
  if (expected.width !== got.width || expected.height !== got.height) {
    writeFileSync(actualFile, actual);
    return {
      name,
      message: `${name}: ${got.width}x${got.height} px, the baseline ${expected.width}x${expected.height} px (actual: ${relative(actualFile)})`,
    };
  }
  const diff = new PNG({ width: got.width, height: got.height });
  const differing = pixelmatch(expected.data, got.data, diff.data, got.width, got.height, { threshold: PIXEL_THRESHOLD, includeAA: false });
  const share = differing / (got.width * got.height);
  appendFileSync(path.join(VISUAL_RESULTS_DIR, "shares.jsonl"), `${JSON.stringify({ name, differing, share })}\n`);
  if (share <= MAX_DIFF_SHARE) return undefined;
  const diffFile = path.join(VISUAL_RESULTS_DIR, `${name}.diff.png`);
  writeFileSync(actualFile, actual);
  writeFileSync(diffFile, PNG.sync.write(diff));
  return {
    name,
    message:
      `${name}: ${(share * 100).toFixed(2)} % of the pixels differ (${differing} px; at most ${(MAX_DIFF_SHARE * 100).toFixed(2)} % allowed); ` +
      `actual ${relative(actualFile)}, difference ${relative(diffFile)}, baseline ${relative(baselineFile)}`,
  };
}

/**
 * The page as it is now in each of `SCREENSHOT_VIEWS` (1440 x 900 and 390 x 844, light and dark through the OS
 * preference: the page's `ui-theme` must be "system"), each compared with `<screen>-<width>-<theme>.png`: the views
 * that do not match. Viewport pictures, not the whole page. Then back to 1440 x 900, light.
 */
export async function compareScreen(page: Page, screen: string, options: ScreenOptions = {}): Promise<Mismatch[]> {
  const mismatches: Mismatch[] = [];
  for (const view of SCREENSHOT_VIEWS) {
    await page.setViewportSize({ width: view.width, height: view.width > 400 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: view.theme });
    await options.inView?.(view);
    await drawn(page, view);
    const picture = await page.screenshot({ animations: "disabled", caret: "hide", mask: options.mask?.(page), maskColor: "#888888" });
    const mismatch = compareWithBaseline(`${screen}-${view.width}-${view.theme}`, picture);
    if (mismatch) mismatches.push(mismatch);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
  return mismatches;
}

/** Fails once, naming every view that does not look as its baseline, with what to do when the change is meant. */
export function expectNoMismatches(mismatches: readonly Mismatch[]): void {
  if (mismatches.length === 0) return;
  throw new Error(
    `${mismatches.length} view(s) do not look as their baselines:\n${mismatches.map((m) => `  ${m.message}`).join("\n")}\n` +
      "If the change is meant: npm run test:visual:update, look at the new pictures (git diff shows which changed), commit them with the change.",
  );
}
