import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { LessonSourceDetail } from "../../src/shared/contracts/courses.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { publicLessonCiting } from "./support/lesson-source.js";
import { shootViews } from "./support/screenshot-path.js";

// Decision 058's follow-up on the screen: a lesson's source panel marks the whole passage the lesson was written from
// (past its 300-character excerpt) inside the text around it, no sentence twice, each neighbour cut between two words;
// a reader of the public course sees the stored excerpt alone.
const h = startHarness();
const rule = (i: number) => `Rule ${i}: at mooring ${i}, read the tide board before you cast off.`;
// One section of numbered rules, long enough for several pieces (each starting with the last rules of the one before).
const HANDBOOK = `# Harbour handbook\n\n## Tides\n\n${Array.from({ length: 150 }, (_, i) => rule(i + 1)).join(" ")}`;
const WORDS = new Set(HANDBOOK.split(/\s+/));

async function newPage(account: { username: string; password: string }) {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, account);
  return page;
}

/** The lesson page with its source 1 opened in the side panel. */
async function openSource(page: Page, courseId: number, lessonId: number) {
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  await page
    .getByRole("region", { name: "Sources" })
    .getByRole("button", { name: /^Open source \[1\]/ })
    .click();
  const panel = page.getByRole("dialog", { name: "Source 1" });
  const passage = panel.getByLabel("Passage");
  await passage.locator("mark").waitFor();
  return { panel, passage, marked: passage.locator("mark") };
}

const numbersIn = (text: string) => [...text.matchAll(/Rule (\d+):/g)].map((m) => Number(m[1]));

describe("a lesson's source panel", () => {
  it("marks the whole passage for the owner, inside neighbours cut between words; a reader sees the excerpt alone", async () => {
    const ownerAccount = await registerViaApi(h, uniqueAccount("harbour"));
    const owner = await apiAs(h, ownerAccount);
    const { courseId, lessonId, pieces } = await publicLessonCiting(
      h,
      owner,
      {
        course: "Reading the harbour",
        module: "Tides",
        lesson: "Before you cast off",
        content: "Read the tide board at every mooring [1].",
      },
      HANDBOOK,
      1,
    );
    expect(pieces.length).toBeGreaterThan(2);
    const detail = (await owner.get(`/api/lessons/${lessonId}/sources/1`)).json() as LessonSourceDetail;
    expect(detail.passage).toBe(pieces[1]);
    expect(detail.excerpt.endsWith("…")).toBe(true);

    const page = await newPage(ownerAccount);
    const { panel, passage, marked } = await openSource(page, courseId, lessonId);
    // The whole passage is marked, its last rule far past the excerpt.
    expect(await marked.textContent()).toBe(detail.passage);
    const lastRule = numbersIn(detail.passage).at(-1) as number;
    expect(detail.excerpt).not.toContain(rule(lastRule));
    expect(await marked.textContent()).toContain(rule(lastRule));
    // Read on across before, passage and after, the rules run in order, none twice.
    const before = (await passage.locator('[data-part="before"]').textContent()) ?? "";
    const after = (await passage.locator('[data-part="after"]').textContent()) ?? "";
    const numbers = numbersIn(`${before} ${await marked.textContent()} ${after}`);
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] as number) + i));
    // Each neighbour is cut between two words: "…" then a whole word, a whole word then "…".
    expect(before).toMatch(/^…\S/);
    expect(after.trim()).toMatch(/\S…$/);
    for (const word of `${before.slice(1)} ${after.trim().slice(0, -1)}`.split(/\s+/).filter(Boolean)) {
      expect(WORDS.has(word), word).toBe(true);
    }
    // The panel opens scrolled to the passage: its start in view, below a few lines of the text before it.
    const top = (await marked.boundingBox())?.y ?? -1;
    const panelTop = (await panel.boundingBox())?.y ?? 0;
    expect(top).toBeGreaterThan(panelTop + 100);
    expect(top).toBeLessThan(450);
    await panel.getByRole("link", { name: "Download handbook.md" }).waitFor();
    await shootViews(page, "lesson-source-passage-owner");
    await page.close();

    // A reader of the public course: the stored excerpt, nothing around it, no download.
    const readerAccount = await registerViaApi(h, uniqueAccount("sailor"));
    const readerPage = await newPage(readerAccount);
    const shown = await openSource(readerPage, courseId, lessonId);
    expect(await shown.marked.textContent()).toBe(detail.excerpt);
    expect(await shown.passage.locator("[data-part]").count()).toBe(0);
    expect(await shown.panel.getByRole("link", { name: /^Download / }).count()).toBe(0);
    await shootViews(readerPage, "lesson-source-passage-reader");
    await readerPage.close();
  });
});
