import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { seriousFindings } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { citeHandbook } from "./support/lesson-source.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

// Issue 32's axe pass, the pages and states where axe (WCAG 2.0/2.1 A and AA, best practices) still found serious or
// critical problems: a grounded lesson's source cards and its tutor, the course editor, Admin › User Activity with a
// failed sign-in, Courses with the theme menu open, a code block wider than a phone, and the API reference. Each at
// 1440 and 390 px, light and dark (the API reference is Swagger UI's own page, which has one theme).

const h = startHarness();
let fake: FakeProvider;
/** The admin adminWithStandIn registered (its accounts share one password). */
let admin: { username: string; password: string };
let owner: Awaited<ReturnType<typeof registerViaApi>>;
let courseId: number;
let lessonId: number;
let codeLessonId: number;
const CITED = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  // The first account on the empty database is the admin.
  await adminWithStandIn(h, fake, { models: ["gpt-4o-mini"], freeModels: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" });
  const first = (await h.database.db.execute(sql`select username from users where role = 'admin'`)).rows[0] as { username: string };
  admin = { username: first.username, password: uniqueAccount().password };
  owner = await registerViaApi(h, uniqueAccount("teacher"));
  const api = await apiAs(h, owner);
  const course = (await api.post("/api/courses", { title: "Cells and enzymes", isPublic: true, status: "published" })).json() as {
    id: number;
  };
  courseId = course.id;
  const module = (await api.post(`/api/courses/${courseId}/modules`, { title: "Enzymes" })).json() as { id: number };
  const lesson = await api.post(`/api/modules/${module.id}/lessons`, {
    title: "How enzymes copy",
    type: "reading",
    content: "## Copying\n\nBefore a cell divides, an enzyme unwinds its ladder so both halves can be copied [1].",
  });
  expect(lesson.statusCode, lesson.body).toBe(201);
  lessonId = lesson.json().id as number;
  const text = `# Enzymes\n\n${CITED} Cells divide and grow while the membrane keeps the inside apart from the outside.`;
  await citeHandbook(h, api, text, { lessonId, courseId });
  const code = await api.post(`/api/modules/${module.id}/lessons`, {
    title: "Counting bases",
    type: "reading",
    content: `A count of the bases, in one long line:\n\n\`\`\`python\nbases = {"adenine": 0, "cytosine": 0, "guanine": 0, "thymine": 0}; counts = [bases[name] + 1 for name in sorted(bases.keys())]\n\`\`\`\n`,
  });
  expect(code.statusCode, code.body).toBe(201);
  codeLessonId = code.json().id as number;
});
afterAll(async () => {
  await fake?.close();
});

/** A signed-in page that follows the system theme, so each view is a viewport and a colour scheme away. */
async function pageOf(account: { username: string; password: string }) {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  await signIn(page, account);
  return page;
}

/**
 * axe's serious and critical findings in each view (1440 and 390 px, light and dark), each line naming its view; `ready`
 * brings the state back after the viewport changed (a menu closes when the layout moves). A screenshot of each view.
 */
async function findingsInEachView(page: Page, name: string, ready: (page: Page) => Promise<void> = async () => {}) {
  const found: string[] = [];
  for (const { width, theme } of SCREENSHOT_VIEWS) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: theme });
    await ready(page);
    found.push(...(await seriousFindings(page)).map((finding) => `${width} ${theme}: ${finding}`));
    await page.screenshot({ path: screenshotPath(`axe-pass-${name}-${width}-${theme}.png`) });
  }
  return found;
}

describe("axe pass (issue 32)", { timeout: 200_000 }, () => {
  it("a lesson's source cards, and its tutor with a cited answer", async () => {
    const page = await pageOf(await registerViaApi(h, uniqueAccount("reader")));
    await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
    await page.getByRole("region", { name: "Sources" }).waitFor();
    const found = await findingsInEachView(page, "lesson");

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole("button", { name: "Ask about this lesson" }).click();
    const panel = page.getByRole("dialog", { name: "Lesson tutor" });
    const box = panel.getByRole("textbox", { name: "Your question about this lesson" });
    await box.fill("What does the quokkatron enzyme do? [1]");
    await box.press("Enter");
    await panel.getByRole("button", { name: /Source 1: handbook\.md/ }).waitFor({ timeout: 30_000 });
    found.push(...(await findingsInEachView(page, "tutor")).map((finding) => `tutor open, ${finding}`));
    expect(found.join("\n")).toBe("");
  });

  it("the course editor", async () => {
    const page = await pageOf(owner);
    await page.goto(`/courses/${courseId}/edit`);
    await page.getByRole("region", { name: "Enzymes" }).waitFor();
    expect((await findingsInEachView(page, "course-editor")).join("\n")).toBe("");
  });

  it("Admin › User Activity with a failed sign-in", async () => {
    await h.app.inject({ method: "POST", url: "/api/login", payload: { username: owner.username, password: "Wrong!pass1" } });
    const page = await pageOf(admin);
    await page.goto("/admin/user-activity");
    await page.getByRole("heading", { name: "User Activity", level: 1 }).waitFor();
    await page.getByText("Failed Login Attempt").first().waitFor();
    expect((await findingsInEachView(page, "activity")).join("\n")).toBe("");
  });

  it("Courses with the theme menu open, and with the account menu open", async () => {
    const page = await pageOf(owner);
    await page.goto("/courses");
    await page.getByRole("heading", { name: "Course AI Builder", level: 1 }).waitFor();
    const found = await findingsInEachView(page, "theme-menu", async (view) => {
      await view.keyboard.press("Escape");
      await view.getByRole("button", { name: "Toggle theme" }).click();
      await view.getByRole("menuitemradio", { name: /Dark/ }).waitFor();
    });
    const account = await findingsInEachView(page, "account-menu", async (view) => {
      await view.keyboard.press("Escape");
      await view.getByRole("button", { name: /^Account menu for / }).click();
      await view.getByRole("menuitem", { name: "Settings" }).waitFor();
    });
    expect([...found, ...account.map((finding) => `account menu, ${finding}`)].join("\n")).toBe("");
  });

  it("a code block wider than a phone", async () => {
    const page = await pageOf(owner);
    await page.goto(`/courses/${courseId}/lessons/${codeLessonId}`);
    await page.getByRole("heading", { name: "Counting bases" }).waitFor();
    await page.getByText("python", { exact: true }).scrollIntoViewIfNeeded();
    expect((await findingsInEachView(page, "code")).join("\n")).toBe("");
  });

  it("the API reference", async () => {
    const page = await pageOf(owner);
    await page.goto("/api/docs");
    await page.locator(".swagger-ui .opblock").first().waitFor();
    // An operation open too: its parameters, responses and buttons.
    await page.locator(".opblock-summary-control").first().click();
    await page.getByText("Parameters", { exact: true }).first().waitFor();
    expect((await findingsInEachView(page, "api-docs")).join("\n")).toBe("");
  });
});
