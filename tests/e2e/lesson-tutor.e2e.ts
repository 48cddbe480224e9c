import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tutorClosedForQuiz, WITHOUT_SOURCE_MESSAGES } from "../../src/shared/contracts/courses.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { AXE_RULES, audit, seriousFindings } from "./support/axe.js";
import { registerViaApi, signIn, apiAs as signInApi, startHarness, uniqueAccount } from "./support/harness.js";
import { publicLessonCiting } from "./support/lesson-source.js";
import { screenshotPath, shootViews } from "./support/screenshot-path.js";

// Issue 31's lesson tutor in the browser: a reader of a public course opens a lesson, asks its tutor beside it, sees the
// answer stream in and its citation open the cited passage; the tutor chat's own page says which lesson it is about.
const h = startHarness();
let fake: FakeProvider;
const CITED = "The quokkatron enzyme unwinds the spiral ladder before the copy begins.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  await adminWithStandIn(h, fake, { models: ["gpt-4o-mini"], freeModels: ["gpt-4o-mini"], defaultModel: "gpt-4o-mini" });
});
afterAll(async () => {
  await fake?.close();
});

const apiAs = (account: { username: string; password: string }) => signInApi(h, account);

/** An owner's public course with one lesson that cites a piece of the owner's handbook. */
async function publishedLesson() {
  const owner = await apiAs(await registerViaApi(h, uniqueAccount("teacher")));
  const text = `# Enzymes\n\n${CITED} Cells divide and grow while the membrane keeps the inside apart from the outside.`;
  const made = await publicLessonCiting(
    h,
    owner,
    {
      course: "Cells and enzymes",
      module: "Enzymes",
      lesson: "How enzymes copy",
      content: "## Copying\n\nBefore a cell divides, an enzyme unwinds its ladder so both halves can be copied.",
    },
    text,
  );
  return { courseId: made.courseId, lessonId: made.lessonId, moduleId: made.moduleId, owner };
}

async function newPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

describe("the lesson tutor", () => {
  it("answers a reader beside the lesson, streamed, with a citation that opens the cited passage", async () => {
    const { courseId, lessonId } = await publishedLesson();
    const reader = await registerViaApi(h, uniqueAccount("reader"));
    const page = await newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, reader);
    await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
    await page.getByRole("heading", { name: "How enzymes copy" }).waitFor();

    await page.getByRole("button", { name: "Ask about this lesson" }).click();
    const panel = page.getByRole("dialog", { name: "Lesson tutor" });
    await panel.getByText("Ask anything about this lesson.").waitFor();
    // The lesson stays in view beside the panel.
    expect(await page.getByRole("heading", { name: "How enzymes copy" }).isVisible()).toBe(true);

    const box = panel.getByRole("textbox", { name: "Your question about this lesson" });
    // A slow answer (the stand-in's #slow: 40 words, 200 ms a piece) streams in: the wait says so, then the text grows.
    await box.fill("Walk me through the copy, slowly. #slow");
    await box.press("Enter");
    const streaming = panel.locator("[data-streaming]");
    await streaming.getByText("Slow reply:").waitFor();
    expect(await streaming.getByText("Writing…").isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath("lesson-tutor-streaming-1440-light.png") });
    await streaming.waitFor({ state: "detached", timeout: 30_000 });

    await box.fill("What does the quokkatron enzyme do? [1]");
    await box.press("Enter");
    const source = panel.getByRole("button", { name: "Source 1: handbook.md" });
    await source.waitFor({ timeout: 20_000 });
    expect(await panel.locator("[data-streaming]").count()).toBe(0);

    // The provider was given the lesson and the cited passage.
    const sent = fake.requests.at(-1)?.rawBody ?? "";
    expect(sent).toContain("an enzyme unwinds its ladder");
    expect(sent).toContain("quokkatron enzyme unwinds");

    await source.click();
    await panel.getByText(CITED).waitFor();
    await shootViews(page, "lesson-tutor-answer");

    // The full chat says which lesson it tutors, and leads back to it.
    await panel.getByRole("link", { name: "Open as a full chat" }).click();
    await page.getByText("Tutor for How enzymes copy").waitFor();
    await shootViews(page, "lesson-tutor-chat-banner");
    await page.getByRole("link", { name: "Back to the lesson" }).click();
    await page.getByRole("heading", { name: "How enzymes copy" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/courses/${courseId}/lessons/${lessonId}`);
  });

  it("is closed while the reader takes a graded quiz of the course, and opens again once it is submitted (decision 067)", async () => {
    const { courseId, lessonId, moduleId, owner } = await publishedLesson();
    const quiz = (
      await owner.post(`/api/modules/${moduleId}/lessons`, { title: "Final check", type: "quiz", kind: "quiz", content: "" })
    ).json() as { id: number };
    const question = { kind: "single", prompt: "Which unwinds the ladder?", options: ["A membrane", "An enzyme"], correct: [1] };
    expect((await owner.post(`/api/lessons/${quiz.id}/questions`, question)).statusCode).toBe(201);
    expect((await owner.post(`/api/lessons/${quiz.id}/publish-quiz`, { passMark: 50, attempts: null })).statusCode).toBe(200);

    const account = await registerViaApi(h, uniqueAccount("quiztaker"));
    const learner = await apiAs(account);
    const attempt = (await learner.post(`/api/lessons/${quiz.id}/attempts`, {})).json() as { id: number };
    const page = await newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, account);
    await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
    await page.getByRole("heading", { name: "How enzymes copy" }).waitFor();
    await page.getByRole("button", { name: "Ask about this lesson" }).click();
    const panel = page.getByRole("dialog", { name: "Lesson tutor" });
    await panel.getByText(tutorClosedForQuiz("Final check")).waitFor();
    // No composer while it is closed.
    expect(await panel.getByRole("textbox", { name: "Your question about this lesson" }).count()).toBe(0);
    expect(await audit(page, AXE_RULES)).toEqual([]);
    expect(await seriousFindings(page)).toEqual([]);
    await shootViews(page, "lesson-tutor-closed-during-quiz");

    expect((await learner.post(`/api/attempts/${attempt.id}/submit`, {})).statusCode).toBe(200);
    await panel.getByRole("button", { name: "Check again" }).click();
    await panel.getByText("Ask anything about this lesson.").waitFor();
    expect(await panel.getByRole("textbox", { name: "Your question about this lesson" }).isVisible()).toBe(true);
  });

  it("says on the lesson when no passage of the material matched it (decision 067)", async () => {
    const { courseId, lessonId } = await publishedLesson();
    await h.app.ctx.db.execute(sql`delete from lesson_sources where lesson_id = ${lessonId}`);
    await h.app.ctx.db.execute(sql`update lessons set without_source = true, ai_generated = true where id = ${lessonId}`);
    const reader = await registerViaApi(h, uniqueAccount("nosource"));
    const page = await newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, reader);
    await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
    await page.getByText(WITHOUT_SOURCE_MESSAGES.reader).waitFor();
    expect(await page.getByRole("heading", { name: "Sources" }).isVisible()).toBe(true);
    expect(await audit(page, AXE_RULES)).toEqual([]);
    await shootViews(page, "lesson-tutor-without-source");
  });

  it("says what to do when the tutor cannot be opened", async () => {
    const { courseId, lessonId } = await publishedLesson();
    const reader = await registerViaApi(h, uniqueAccount("late"));
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, reader);
    await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
    await page.getByRole("heading", { name: "How enzymes copy" }).waitFor();
    // The lesson is deleted after the page read it: the tutor answers 404, and the panel says so with a retry.
    await h.app.ctx.db.execute(sql`delete from lessons where id = ${lessonId}`);
    await page.getByRole("button", { name: "Ask about this lesson" }).click();
    const panel = page.getByRole("dialog", { name: "Lesson tutor" });
    await panel.getByText("The tutor could not be opened: Lesson not found").waitFor();
    expect(await panel.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
  });
});
