import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import type { KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, apiAs as signInApi, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

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
  const uploaded = await owner.request({
    method: "POST",
    url: "/api/files",
    ...multipartFile("file", "handbook.md", "text/markdown", new TextEncoder().encode(text)),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const file = await settledFile(owner, (uploaded.json() as KnowledgeFile).id);
  expect(file.status).toBe("ready");
  const course = (await owner.post("/api/courses", { title: "Cells and enzymes", isPublic: true, status: "published" })).json() as {
    id: number;
  };
  const module = (await owner.post(`/api/courses/${course.id}/modules`, { title: "Enzymes" })).json() as { id: number };
  const lesson = (
    await owner.post(`/api/modules/${module.id}/lessons`, {
      title: "How enzymes copy",
      type: "reading",
      content: "## Copying\n\nBefore a cell divides, an enzyme unwinds its ladder so both halves can be copied.",
    })
  ).json() as { id: number };
  const chunks = await h.app.ctx.db.execute(sql`select id, content from knowledge_chunks where file_id = ${file.id} order by chunk_index`);
  const piece = (chunks.rows as { id: number; content: string }[])[0];
  if (!piece) throw new Error("the handbook has no piece");
  await h.app.ctx.db.insert(lessonSources).values({
    lessonId: lesson.id,
    courseId: course.id,
    n: 1,
    kind: "file",
    fileId: file.id,
    chunkId: Number(piece.id),
    fileName: "handbook.md",
    passage: piece.content,
  });
  return { courseId: course.id, lessonId: lesson.id };
}

async function newPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

async function shootViews(page: Page, name: string) {
  for (const view of SCREENSHOT_VIEWS) {
    await page.setViewportSize({ width: view.width, height: view.width > 400 ? 900 : 844 });
    await page.emulateMedia({ colorScheme: view.theme });
    await page.waitForTimeout(250);
    await page.screenshot({ path: screenshotPath(`lesson-tutor-${name}-${view.width}-${view.theme}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
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
    await shootViews(page, "answer");

    // The full chat says which lesson it tutors, and leads back to it.
    await panel.getByRole("link", { name: "Open as a full chat" }).click();
    await page.getByText("Tutor for How enzymes copy").waitFor();
    await shootViews(page, "chat-banner");
    await page.getByRole("link", { name: "Back to the lesson" }).click();
    await page.getByRole("heading", { name: "How enzymes copy" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/courses/${courseId}/lessons/${lessonId}`);
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
