// Decision 060: what a new user and an attacker found on a first look, walked in Chromium at 1440 and 390 px. Sign-in
// tabs name themselves, a wrong password is said in the form, a certificate nobody was given is a 404, the chat's title
// keeps its room on a phone, a locked lesson gives one date in the reader's words under a calm icon, the course feature
// has one name, the course form says what the chosen status means, a new lesson's kind is its type, and "From my
// material" shows its plan lock where it is chosen.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { screenshotPath } from "./support/screenshot-path.js";

const h = startHarness();
const WIDTHS = [1440, 390] as const;
let author: Awaited<ReturnType<typeof registerViaApi>>;
let authorApi: CookieClient;

beforeAll(async () => {
  // The first account on the empty database becomes the admin; the walks below are plain users.
  await registerViaApi(h, uniqueAccount("admin"));
  author = await registerViaApi(h, uniqueAccount("author"));
  authorApi = await apiAs(h, author);
});

async function titleBecomes(page: Page, title: string) {
  await page.waitForFunction((wanted) => document.title === wanted, title);
  expect(await page.title()).toBe(title);
}

async function signedIn(account: { username: string; password: string }, width: number, expectedStatuses?: number[]) {
  const page = await h.newPage({ width, height: width > 400 ? 900 : 844, expectedStatuses });
  await signIn(page, account);
  return page;
}

describe("signing in", () => {
  it("names the tab after the screen, and says a wrong password in the form as well as in the toast", async () => {
    const account = await registerViaApi(h, uniqueAccount("wrong"));
    for (const width of WIDTHS) {
      const page = await h.newPage({ width, height: 900, expectedStatuses: [401] });
      await page.goto("/login");
      await titleBecomes(page, "Login · Lumora");
      await page.goto("/auth?tab=register");
      await titleBecomes(page, "Register · Lumora");
      await page.getByRole("tab", { name: "Login" }).click();
      await titleBecomes(page, "Login · Lumora");

      await page.getByLabel("Username").fill(account.username);
      await page.getByLabel("Password", { exact: true }).fill("Wrong!pass1");
      await page.getByRole("button", { name: "Login", exact: true }).click();
      const said = page.getByTestId("login-failed");
      await said.waitFor();
      expect(await said.innerText()).toBe("Invalid username or password");
      // The password is selected, ready to be typed again.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-password");
      await page.screenshot({ path: screenshotPath(`login-failed-${width}.png`) });
      // Still there once the toast has gone; gone at the next try.
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.context().close();
    }
  });
});

describe("a certificate nobody was given", () => {
  it("answers 404 with the page that says so, to a visitor and to a signed-in user", async () => {
    for (const width of WIDTHS) {
      const visitor = await h.newPage({ width, height: 900, expectedStatuses: [404] });
      const response = await visitor.goto("/certificates/nosuchcertificate");
      expect(response?.status()).toBe(404);
      await visitor.getByRole("heading", { name: "Certificate not found" }).waitFor();
      await visitor.screenshot({ path: screenshotPath(`certificate-missing-${width}.png`) });
      await visitor.context().close();
    }
    const page = await signedIn(author, 1440, [404]);
    expect((await page.goto("/certificates/nosuchcertificate"))?.status()).toBe(404);
    await page.getByRole("heading", { name: "Certificate not found" }).waitFor();
    await page.context().close();
  });
});

describe("the chat's title on a phone", () => {
  it("keeps the first row for the title: the chat's actions go under it", async () => {
    const title = "Weekly planning notes";
    const chat = await authorApi.post("/api/chats", { title });
    expect(chat.statusCode).toBe(201);
    const collection = await authorApi.post("/api/collections", { name: "Team handbook" });
    expect(collection.statusCode).toBe(201);
    const attached = await authorApi.patch(`/api/chats/${chat.json().id}`, { collectionIds: [collection.json().id] });
    expect(attached.statusCode, attached.body).toBe(200);
    for (const width of WIDTHS) {
      const page = await signedIn(author, width);
      await page.goto(`/chat/${chat.json().id}`);
      const heading = page.getByRole("heading", { level: 1, name: title });
      await heading.waitFor();
      await page.getByRole("button", { name: "Share link" }).waitFor();
      // The whole title is drawn, not cut to its first letter.
      expect(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect((await heading.boundingBox())?.width ?? 0).toBeGreaterThan(width > 400 ? 300 : 200);
      // The row under it holds the pickers and the chat's actions without one drawn over another.
      const picker = await page.getByRole("combobox", { name: "Model" }).boundingBox();
      const badge = await page.getByRole("button", { name: "1 collection" }).boundingBox();
      expect((picker?.x ?? 0) + (picker?.width ?? 0)).toBeLessThanOrEqual(badge?.x ?? 0);
      // Nothing is pushed off the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: screenshotPath(`chat-title-${width}.png`) });
      await page.context().close();
    }
  });
});

describe("a lesson that opens later", () => {
  it("says its one date in the reader's words, under a calm icon", async () => {
    const course = await authorApi.post("/api/courses", { title: "Drip course", description: "", isPublic: true, status: "published" });
    const courseId = course.json().id as number;
    const module = await authorApi.post(`/api/courses/${courseId}/modules`, { title: "Week one" });
    const first = await authorApi.post(`/api/modules/${module.json().id}/lessons`, { title: "Open", type: "reading", content: "Hi" });
    expect(first.statusCode).toBe(201);
    const later = await authorApi.post(`/api/modules/${module.json().id}/lessons`, {
      title: "Later",
      type: "reading",
      content: "Soon",
      releaseAfterDays: 3,
    });
    expect(later.statusCode).toBe(201);
    const learner = await registerViaApi(h, uniqueAccount("learner"));
    const learnerApi = await apiAs(h, learner);
    expect((await learnerApi.get(`/api/lessons/${first.json().id}`)).statusCode).toBe(200); // starts the course
    for (const width of WIDTHS) {
      const page = await signedIn(learner, width, [403]);
      await page.goto(`/courses/${courseId}/lessons/${later.json().id}`);
      await page.getByRole("heading", { name: "This lesson is locked" }).waitFor();
      const day = await page.evaluate(() => {
        const opens = new Date(Date.now() + 3 * 86_400_000);
        return opens.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
      });
      const text = await page.getByText(/^This lesson opens on/).innerText();
      expect(text).toBe(`This lesson opens on ${day}. Come back then.`);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}|\(/);
      const icon = page.locator("svg.lucide-calendar-clock");
      expect(await icon.count()).toBe(1);
      expect(await icon.getAttribute("class")).not.toContain("text-destructive");
      await page.screenshot({ path: screenshotPath(`lesson-locked-${width}.png`) });
      await page.context().close();
    }
  });
});

describe("the course feature's name", () => {
  it("is Course AI Builder in the navigation, on the dashboard and on its page", async () => {
    for (const width of WIDTHS) {
      const page = await signedIn(author, width);
      await page.getByRole("heading", { name: "Key Features" }).waitFor();
      if (width < 1024) await page.getByRole("button", { name: "Open menu" }).click();
      const nav = width < 1024 ? page.getByRole("dialog") : page.getByRole("banner");
      const navLink = nav.getByRole("link", { name: /Course AI Builder/ });
      await navLink.waitFor();
      expect(await navLink.getAttribute("href")).toBe("/courses");
      if (width < 1024) await page.keyboard.press("Escape");
      const main = page.getByRole("main");
      expect(await main.getByRole("link", { name: /Course AI Builder/ }).count()).toBeGreaterThanOrEqual(2); // hero, quick action
      const everything = await page.locator("body").innerText();
      expect(everything).not.toContain("Course AI Dashboard");
      expect(everything).not.toContain("Course Builder AI");
      await page.screenshot({ path: screenshotPath(`dashboard-names-${width}.png`) });
      await page.goto("/courses");
      await page.getByRole("heading", { level: 1, name: "Course AI Builder" }).waitFor();
      await page.context().close();
    }
  });
});

describe("the course editor", () => {
  it("says what the chosen status means, and makes a new lesson's kind from its one Type choice", async () => {
    const course = await authorApi.post("/api/courses", { title: "Form course", description: "", isPublic: false, status: "draft" });
    const courseId = course.json().id as number;
    expect((await authorApi.post(`/api/courses/${courseId}/modules`, { title: "Unit" })).statusCode).toBe(201);
    for (const width of WIDTHS) {
      const page = await signedIn(author, width);
      await page.goto(`/courses/${courseId}/edit`);
      await page.getByRole("tab", { name: "Course Details" }).click();
      const status = page.getByRole("combobox", { name: "Status" });
      await status.waitFor();
      const form = page.locator("#course-details-form");
      await form.getByText("A draft is visible only to you.").waitFor();
      await status.click();
      await page.getByRole("option", { name: "Published" }).click();
      await form.getByText("Published, but private: only you (and administrators) can see it.").waitFor();
      expect(await form.getByText("A draft is visible only to you.").count()).toBe(0);
      await page.getByRole("switch", { name: "Public course" }).click();
      await form.getByText(/^Published and public: every signed-in user can read it/).waitFor();
      await page.screenshot({ path: screenshotPath(`course-status-hint-${width}.png`) });

      await page.getByRole("tab", { name: "Modules & Lessons" }).click();
      await page.getByRole("region", { name: "Unit" }).getByRole("button", { name: "Add Lesson" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Lesson" });
      await dialog.getByLabel("Lesson title").waitFor();
      expect(await dialog.getByText("Lesson kind").count()).toBe(0);
      expect(await dialog.getByRole("radio").count()).toBe(0);
      await dialog.getByLabel("Content").waitFor();
      await dialog.getByRole("combobox", { name: "Type" }).click();
      await page.getByRole("option", { name: "Quiz" }).click();
      await dialog.getByLabel("Introduction (optional)").waitFor();
      await dialog.getByText("You add the questions next, in the quiz editor.").waitFor();
      await page.screenshot({ path: screenshotPath(`add-lesson-type-quiz-${width}.png`) });
      await dialog.getByRole("combobox", { name: "Type" }).click();
      await page.getByRole("option", { name: "Video" }).click();
      await dialog.getByLabel("Content").waitFor();
      await page.keyboard.press("Escape");
      await page.context().close();
    }
  });
});

describe("New Course for a plan without course generation", () => {
  it("shows the plan's lock on From my material, where it is chosen", async () => {
    for (const width of WIDTHS) {
      const page = await signedIn(author, width);
      await page.goto("/courses");
      await page.getByRole("button", { name: "New Course" }).first().click();
      const dialog = page.getByRole("dialog", { name: "New Course" });
      const material = dialog.getByRole("button", { name: /From my material/ });
      await material.waitFor();
      expect(await material.isDisabled()).toBe(true);
      expect(await material.getAttribute("data-locked-ai")).toBe("");
      const noteId = await material.getAttribute("aria-describedby");
      expect(noteId).toBe("new-course-ai-locked");
      expect(await page.locator(`#${noteId}`).innerText()).toContain(PLAN_REFUSALS.courseGeneration);
      expect(await material.locator("svg.lucide-lock").count()).toBe(1);
      await page.screenshot({ path: screenshotPath(`new-course-material-locked-${width}.png`) });
      await page.context().close();
    }
  });
});
