import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The axe rules the walks check: contrast (WCAG 2 AA), text alternatives, and a control's name containing its
 * visible text (WCAG 2.5.3, issue 29: the account button of every signed-in page failed it).
 */
export const AXE_RULES = ["color-contrast", "image-alt", "svg-img-alt", "role-img-alt", "label-content-name-mismatch"];

export interface Finding {
  rule: string;
  target: string;
  summary: string;
}

/**
 * Waits until the page's colours are the ones it ends on: a dialog fading in, a menu opening or a theme's transitions
 * are audited mid-way otherwise (text at half opacity fails contrast), which a loaded machine makes likely. Two frames
 * first, so a change just made has started its transitions; endless animations (spinners) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
    undefined,
    { timeout: 10_000 },
  );
}

/** axe's findings for the rules named, as readable lines; axe runs inside the page (the CSP allows no injected tag). */
export async function audit(page: Page, rules: string[] = AXE_RULES): Promise<Finding[]> {
  await settled(page);
  await page.evaluate(AXE);
  return page.evaluate(async (values) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<AxeResults> } }).axe;
    type AxeResults = { violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const results = await axe.run(document, { runOnly: { type: "rule", values }, resultTypes: ["violations"] });
    return results.violations.flatMap((violation) =>
      violation.nodes.map((node) => ({ rule: violation.id, target: node.target.join(" "), summary: node.failureSummary ?? "" })),
    );
  }, rules);
}

/**
 * Every axe rule of WCAG 2.0/2.1 A and AA and axe's best practices, with label-content-name-mismatch (experimental, so
 * off unless named): the findings whose impact is serious or critical, as readable lines (issue 32's "no serious
 * violations"). `within` narrows the check to one part of the page (a tab panel), as a CSS selector.
 */
export async function seriousFindings(page: Page, within?: string): Promise<string[]> {
  await settled(page);
  await page.evaluate(AXE);
  return page.evaluate(async (selector) => {
    type Rule = { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] };
    type AxeResults = { violations: Rule[]; passes: Rule[]; incomplete: Rule[]; inapplicable: Rule[] };
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe;
    const results = await axe.run(selector ? { include: [[selector]] } : document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      rules: { "label-content-name-mismatch": { enabled: true } },
      resultTypes: ["violations"],
    });
    const ran = [...results.violations, ...results.passes, ...results.incomplete, ...results.inapplicable].map((rule) => rule.id);
    if (!ran.includes("label-content-name-mismatch")) throw new Error("axe did not run label-content-name-mismatch");
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .flatMap((violation) =>
        violation.nodes.map((node) => `${violation.id} (${violation.impact}) ${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
      );
  }, within);
}
