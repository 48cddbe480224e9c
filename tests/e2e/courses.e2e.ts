import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { CookieClient } from "../helpers/build-test-app.js";
import { adminWithStandIn } from "./support/ai-setup.js";
import { registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
let fake: FakeProvider;
let adminApi: CookieClient;

const FORBIDDEN = "You don't have permission to view this course.";
const EDIT_FORBIDDEN = "You don't have permission to edit this course.";

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  adminApi = await adminWithStandIn(h, fake, { models: ["small-model"], freeModels: ["small-model"], defaultModel: "small-model" });
});
afterAll(async () => {
  await fake?.close();
});

async function earlyAccessUser() {
  const account = await registerViaApi(h, uniqueAccount("author"));
  const changed = await adminApi.patch(`/api/admin/users/${account.id}`, { planType: "earlyAccess" });
  expect(changed.statusCode, changed.body).toBe(200);
  return account;
}

/** A course made through the API by `account` (private draft unless told otherwise). */
async function apiCourse(account: { username: string; password: string }, body: Record<string, unknown>) {
  const api = new CookieClient(h.app);
  expect((await api.post("/api/login", { username: account.username, password: account.password })).statusCode).toBe(200);
  const created = await api.post("/api/courses", { description: "", isPublic: false, status: "draft", ...body });
  expect(created.statusCode, created.body).toBe(201);
  return { api, id: created.json().id as number };
}

async function toast(page: Page, title: string) {
  const found = page.locator("[data-sonner-toast]", { hasText: title }).first();
  await found.waitFor();
  return found.innerText();
}

const moduleTitles = (page: Page) => page.locator('[role="region"] h3[id^="module-"]').allInnerTexts();
const progressValue = (page: Page) => page.getByRole("progressbar", { name: "Your progress" }).getAttribute("aria-valuenow");

describe("course builder", () => {
  it("an author builds a course by hand and with AI, publishes it, and another user reads it", { timeout: 150_000 }, async () => {
    const author = await earlyAccessUser();
    const page = await h.newPage();
    await signIn(page, author);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Course AI Builder/ })
      .click();
    await page.waitForURL("**/courses");
    await page.getByRole("heading", { name: "Course AI Builder" }).waitFor();
    await page.getByRole("tab", { name: "My Courses" }).click();
    await page.getByText("You haven't created any courses yet.").waitFor();

    // New Course: the title rule, the AI description (needs a title first), then the editor.
    await page.getByRole("button", { name: "Create a Course" }).click();
    const create = page.getByRole("dialog", { name: "New Course" });
    await create.getByRole("button", { name: "Create Course" }).click();
    await create.getByText("Title must be at least 3 characters").waitFor();
    await create.getByRole("button", { name: "Generate with AI" }).click();
    await create.getByText("Please enter a title first.").waitFor();
    await create.getByLabel("Title").fill("Ocean Basics");
    await create.getByRole("button", { name: "Generate with AI" }).click();
    await toast(page, "AI Description Generated");
    await expect.poll(() => create.getByLabel("Description").inputValue()).toContain("Echo: ");
    await create.getByLabel("Description").fill("Tides, waves and currents for curious people.");
    await create.getByRole("button", { name: "Create Course" }).click();
    await toast(page, "Course created");
    await page.waitForURL(/\/courses\/\d+\/edit$/);
    const courseId = Number(/\/courses\/(\d+)\/edit/.exec(page.url())?.[1]);
    await page.getByRole("heading", { name: "Edit Course" }).waitFor();
    await page.getByText("No modules yet. Add one, or let AI propose an outline.").waitFor();

    // By hand: a module and a lesson.
    await page.getByRole("button", { name: "Add Module" }).click();
    const addModule = page.getByRole("dialog", { name: "Add Module" });
    await addModule.getByRole("button", { name: "Add Module" }).click();
    await addModule.getByText("Title is required").waitFor();
    await addModule.getByLabel("Module title").fill("Tides");
    await addModule.getByLabel("Module description").fill("Why the sea comes and goes");
    await addModule.getByRole("button", { name: "Add Module" }).click();
    await toast(page, "Module added");
    const tides = page.getByRole("region", { name: "Tides" });
    await tides.getByRole("button", { name: "Add Lesson" }).click();
    const addLesson = page.getByRole("dialog", { name: "Add Lesson" });
    await addLesson.getByRole("button", { name: "Add Lesson" }).click();
    await addLesson.getByText("Content is required").waitFor();
    await addLesson.getByLabel("Lesson title").fill("High and low water");
    await addLesson.getByLabel("Content").fill("## The moon\n\nThe moon **pulls** the sea twice a day.");
    await addLesson.getByRole("button", { name: "Add Lesson" }).click();
    await toast(page, "Lesson added");
    await tides.getByText("High and low water").waitFor();

    // Inline edit, one lesson at a time; the earlier content is kept as a version.
    await tides.getByRole("button", { name: "Edit lesson High and low water" }).click();
    const editor = page.getByRole("form", { name: "Edit lesson High and low water" });
    await editor.getByLabel("Content").fill("## The moon\n\nThe moon **pulls** the sea twice a day, and the sun helps.");
    await editor.getByRole("button", { name: "Versions" }).click();
    await editor.getByText("No earlier versions.", { exact: false }).waitFor();
    await editor.getByRole("button", { name: "Save Lesson" }).click();
    await toast(page, "Lesson updated");
    await editor.waitFor({ state: "detached" });

    // AI: an outline to review and edit, approved, then the lessons are written one by one.
    fake.setChunkDelay(120);
    await page.getByLabel("Target audience").fill("sailing beginners");
    await page.getByRole("button", { name: /Generate with AI/ }).click();
    const generate = page.getByRole("dialog", { name: "Generate with AI" });
    await generate.getByLabel("Number of modules").fill("2");
    await generate.getByRole("button", { name: "Generate Outline" }).click();
    const review = page.getByRole("dialog", { name: "Review the outline" });
    await expect.poll(() => review.getByLabel("Module 1 title").inputValue()).toBe("Getting Started");
    await review.getByLabel("Module 1 title").fill("Getting Started Fast");
    await review.getByRole("button", { name: "Remove module 2 lesson 2" }).click();
    await review.getByText("2 modules, 3 lessons.", { exact: false }).waitFor();
    await page.screenshot({ path: screenshotPath("courses-review-1440.png") });
    await review.getByRole("button", { name: "Approve and create" }).click();
    await review.waitFor({ state: "detached" });
    await page.getByText(/Writing lesson \d of 3/).waitFor();
    await page.getByRole("progressbar", { name: "Lessons written" }).waitFor();
    await page.screenshot({ path: screenshotPath("courses-generating-1440.png"), fullPage: true });
    await toast(page, "Course Content Generated");
    fake.setChunkDelay(15);
    expect(await moduleTitles(page)).toEqual(["Tides", "Getting Started Fast", "Going Further"]);
    const sentHints = fake.requests.some((r) => JSON.stringify(r.body).includes("sailing beginners"));
    expect(sentHints, "the Course Training hints go with the AI requests").toBe(true);

    // Reorder, publish at once, then make it public through the details form.
    await page.getByRole("button", { name: "Move Going Further up" }).click();
    await expect.poll(() => moduleTitles(page)).toEqual(["Tides", "Going Further", "Getting Started Fast"]);
    await page.getByRole("button", { name: "Move Going Further down" }).click();
    await expect.poll(() => moduleTitles(page)).toEqual(["Tides", "Getting Started Fast", "Going Further"]);
    await page.getByRole("button", { name: "Publish Course" }).click();
    await toast(page, "Course updated");
    await page.getByRole("button", { name: "Switch to Draft" }).waitFor();
    await page.getByRole("tab", { name: "Course Details" }).click();
    expect(await page.getByRole("combobox", { name: "Status" }).innerText()).toContain("Published");
    await page.getByLabel("Title", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save Course" }).click();
    await page.getByText("Title is required").waitFor();
    await page.getByRole("button", { name: "Reset Changes" }).click();
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Ocean Basics");
    await page.getByRole("switch", { name: "Public course" }).click();
    await page.getByRole("button", { name: "Save Course" }).click();
    await page.getByRole("complementary").getByText("Public", { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath("courses-edit-1440.png"), fullPage: true });

    // Another user: finds it under Public Courses, reads, goes Next across modules, marks complete.
    const secret = await apiCourse(author, { title: "Secret Recipes" });
    const reader = await registerViaApi(h, uniqueAccount("reader"));
    const other = await h.newPage();
    await signIn(other, reader);
    await other.goto("/courses");
    await other.getByRole("tab", { name: "Public Courses" }).click();
    const card = other.getByRole("region", { name: "Ocean Basics" });
    await card.getByText("Tides, waves and currents for curious people.").waitFor();
    expect(await card.getByText("Created by you").count()).toBe(0);
    expect(await card.getByRole("button", { name: /Delete/ }).count()).toBe(0);
    expect(await card.getByRole("link", { name: /^Edit/ }).count()).toBe(0);
    await other.screenshot({ path: screenshotPath("courses-1440.png"), fullPage: true });
    await card.getByRole("link", { name: /View Course/ }).click();
    await other.waitForURL(`**/courses/${courseId}`);
    await other.getByRole("heading", { name: "Course Navigation" }).waitFor();
    expect(await other.getByRole("link", { name: "Edit Course" }).count()).toBe(0);
    expect(await progressValue(other)).toBe("0");
    await other.getByRole("tab", { name: "Overview" }).click();
    await other.getByText("Another user").waitFor();
    await other.getByRole("link", { name: "Start Learning" }).click();
    await other.waitForURL(/\/lessons\/\d+$/);
    await other.getByText("Module 1: Tides", { exact: true }).waitFor();
    await other.getByRole("heading", { name: "The moon" }).waitFor();
    await other.getByRole("link", { name: "Next", exact: true }).click();
    await other.getByText("Module 2: Getting Started Fast", { exact: true }).waitFor();
    await other.getByRole("heading", { name: "Why it matters" }).waitFor();
    await other.getByText('Write the reading lesson "Why it matters".', { exact: false }).waitFor();
    await other.getByRole("button", { name: "Mark as complete" }).click();
    await other.getByRole("button", { name: "Completed" }).waitFor();
    await other.screenshot({ path: screenshotPath("courses-lesson-1440.png"), fullPage: true });
    await other.getByRole("link", { name: "Back to Course Overview" }).click();
    await other.waitForURL(`**/courses/${courseId}`);
    await expect.poll(() => progressValue(other)).toBe("25");
    await other.getByRole("link", { name: "Continue" }).waitFor();
    await other.screenshot({ path: screenshotPath("courses-detail-1440.png"), fullPage: true });

    // Someone else's private course: Access Restricted; any edit page of it: Access Denied.
    await other.goto(`/courses/${secret.id}`);
    await other.getByRole("heading", { name: "Access Restricted" }).waitFor();
    await other.getByText(FORBIDDEN).waitFor();
    await other.goto(`/courses/${secret.id}/edit`);
    await other.getByRole("heading", { name: "Access Denied" }).waitFor();
    await other.getByText(EDIT_FORBIDDEN).waitFor();
    await other.goto(`/courses/${courseId}/edit`);
    await other.getByRole("heading", { name: "Access Denied" }).waitFor();
    await other.goto("/courses/999999");
    await other.getByRole("heading", { name: "Course not found" }).waitFor();
    await other.goto("/courses/nothing/here");
    await other.waitForURL((url) => url.pathname === "/courses");
  });

  it("works at 375 px: the list, the editor, a private lesson and deleting", { timeout: 90_000 }, async () => {
    const author = await earlyAccessUser();
    const { api, id } = await apiCourse(author, { title: "Pocket Course", description: "Small screens, big ideas." });
    const module = (await api.post(`/api/courses/${id}/modules`, { title: "First steps", description: "" })).json() as { id: number };
    const lesson = await api.post(`/api/modules/${module.id}/lessons`, {
      title: "Hello",
      type: "reading",
      content: "Short **lesson**.",
      aiGenerated: false,
    });
    const lessonId = lesson.json().id as number;

    const page = await h.newPage({ width: 375, height: 812 });
    await signIn(page, author);
    await page.goto("/courses");
    const card = page.getByRole("region", { name: "Pocket Course" });
    await card.getByText("Created by you").waitFor();
    await page.screenshot({ path: screenshotPath("courses-375.png"), fullPage: true });
    await card.getByRole("link", { name: "Edit Pocket Course" }).click();
    await page.getByRole("region", { name: "First steps" }).getByText("Hello").waitFor();
    await page.screenshot({ path: screenshotPath("courses-edit-375.png"), fullPage: true });
    await page.goto(`/courses/${id}/lessons/${lessonId}`);
    await page.getByText("Module 1: First steps").waitFor();
    await page.screenshot({ path: screenshotPath("courses-lesson-375.png"), fullPage: true });

    // The lesson of a private course is denied to another (free) user; AI needs Early Access.
    const reader = await registerViaApi(h, uniqueAccount("free"));
    const other = await h.newPage({ width: 375, height: 812 });
    await signIn(other, reader);
    await other.goto(`/courses/${id}/lessons/${lessonId}`);
    await other.getByRole("heading", { name: "Access Denied" }).waitFor();
    await other.getByText("You don't have permission to view this lesson.").waitFor();
    await other.goto("/courses");
    await other.getByRole("button", { name: "New Course" }).click();
    await other.getByRole("dialog").getByLabel("Title").fill("Free plan course");
    // Locked on the free plan (never a live button that fails): the plan needed and the way to get it.
    const locked = other.getByRole("dialog").getByRole("button", { name: "Generate with AI" });
    expect(await locked.getAttribute("data-locked-ai")).not.toBeNull();
    expect(await locked.isDisabled()).toBe(true);
    await other
      .getByRole("dialog")
      .getByRole("note")
      .getByText("AI course generation needs the Early Access plan.", { exact: false })
      .waitFor();

    // Deleting asks first.
    await page.goto("/courses");
    await card.getByRole("button", { name: "Delete Pocket Course" }).click();
    await page.getByText("Are you sure you want to delete this course? This action cannot be undone.").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await toast(page, "Course deleted");
    await page.getByRole("tab", { name: "My Courses" }).click();
    await page.getByText("You haven't created any courses yet.").waitFor();
  });

  it("the editor's extras: cover image, module edit, lesson versions, stop, reload and resume", { timeout: 120_000 }, async () => {
    const author = await earlyAccessUser();
    const { api, id } = await apiCourse(author, { title: "Extras Course" });
    const module = (await api.post(`/api/courses/${id}/modules`, { title: "Basics", description: "" })).json() as { id: number };
    const body = { title: "Versioned", type: "reading", content: "First text.", aiGenerated: false };
    const lessonId = (await api.post(`/api/modules/${module.id}/lessons`, body)).json().id as number;
    expect((await api.patch(`/api/lessons/${lessonId}`, { content: "Second text." })).statusCode).toBe(200);

    const page = await h.newPage();
    await signIn(page, author);
    await page.goto(`/courses/${id}/edit`);

    // Module title and description in place; the lesson's earlier content comes back with Restore.
    await page.getByRole("button", { name: "Edit module Basics" }).click();
    await page.getByLabel("Module title").fill("The Basics");
    await page.getByRole("button", { name: "Save Module" }).click();
    await toast(page, "Module updated");
    const basics = page.getByRole("region", { name: "The Basics" });
    await basics.getByRole("button", { name: "Edit lesson Versioned" }).click();
    const editor = page.getByRole("form", { name: "Edit lesson Versioned" });
    expect(await editor.getByLabel("Content").inputValue()).toBe("Second text.");
    await editor.getByRole("button", { name: "Versions" }).click();
    await editor.getByText("First text.").waitFor();
    await editor.getByRole("button", { name: /^Restore/ }).click();
    await toast(page, "Lesson updated");
    await expect.poll(() => editor.getByLabel("Content").inputValue()).toBe("First text.");
    await editor.getByRole("button", { name: "Cancel" }).click();
    await basics.getByRole("button", { name: "Delete lesson Versioned" }).click();
    await page.getByText("Are you sure you want to delete this lesson?").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    await basics.getByRole("button", { name: "Delete module The Basics" }).click();
    await page.getByText("Are you sure you want to delete this module? All associated lessons will also be deleted.").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();

    // Cover image: uploaded, shown, removed.
    await page.getByRole("tab", { name: "Course Details" }).click();
    await page.locator("#course-cover-file").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: PNG });
    await toast(page, "Course updated");
    await page.getByRole("button", { name: "Remove cover" }).waitFor();
    const cover = await api.get(`/api/courses/${id}`);
    expect(cover.json().coverImage).toBeTruthy();
    const shown = page.locator(`img[src="${cover.json().coverImage}"]`).first();
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await page.getByRole("button", { name: "Remove cover" }).click();
    await page.getByRole("button", { name: "Upload cover" }).waitFor();

    // A slow generation: Stop, Resume, and a reload brings the progress back.
    fake.setChunkDelay(250);
    await page.getByRole("tab", { name: "Modules & Lessons" }).click();
    await page.getByRole("button", { name: /Generate with AI/ }).click();
    await page.getByRole("button", { name: "Generate Outline" }).click();
    await page.getByRole("button", { name: "Approve and create" }).click();
    await page.getByText(/Writing lesson 1 of 4/).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await page.getByText(/Generation stopped after \d of 4 lessons\./).waitFor();
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByText(/Writing lesson \d of 4/).waitFor();
    await page.reload();
    await page.getByText(/Writing lesson \d of 4/).waitFor();
    fake.setChunkDelay(15);
    await toast(page, "Course Content Generated");
    expect(await moduleTitles(page)).toEqual(["The Basics", "Getting Started", "Going Further"]);
  });
});

/** A 1x1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
