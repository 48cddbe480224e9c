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

/** axe's findings for the rules named, as readable lines; axe runs inside the page (the CSP allows no injected tag). */
export async function audit(page: Page, rules: string[] = AXE_RULES): Promise<Finding[]> {
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
