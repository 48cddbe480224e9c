import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fontsOf } from "../helpers/pdf-fonts.js";
import { seedAttempt, seedPublishedQuiz } from "../helpers/quiz-kit.js";
import { seriousFindings } from "./support/axe.js";
import { apiAs, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

// Issue 32: the certificate's verification page signed out (genuine, then revoked; noindex), and the owner's analytics.

const h = startHarness();

/** A public course with a reading lesson and a published quiz, completed by a learner who failed once and then passed. */
async function completedCourse() {
  const owner = await registerViaApi(h, { ...uniqueAccount("owner"), name: "Olga Owner" });
  const learner = await registerViaApi(h, { ...uniqueAccount("learner"), name: "Lena Learner" });
  const ownerApi = await apiAs(h, owner);
  const learnerApi = await apiAs(h, learner);
  const courseId = (await ownerApi.post("/api/courses", { title: "Ocean Basics", description: "Tides and waves" })).json().id as number;
  expect((await ownerApi.patch(`/api/courses/${courseId}`, { status: "published", isPublic: true })).statusCode).toBe(200);
  const moduleId = (await ownerApi.post(`/api/courses/${courseId}/modules`, { title: "Water" })).json().id as number;
  const reading = (await ownerApi.post(`/api/modules/${moduleId}/lessons`, { title: "Tides", type: "reading", content: "# Tides" })).json()
    .id;
  const quiz = (
    await ownerApi.post(`/api/modules/${moduleId}/lessons`, { title: "Tide quiz", type: "quiz", kind: "quiz", content: "" })
  ).json().id;
  const later = (
    await ownerApi.post(`/api/modules/${moduleId}/lessons`, {
      title: "Currents",
      type: "reading",
      content: "# Currents",
      releaseAfterDays: 5,
    })
  ).json().id;
  const versionId = await seedPublishedQuiz(h.database.db, quiz);
  expect((await learnerApi.post(`/api/lessons/${reading}/complete`)).statusCode).toBe(200);
  // Still locked for the learner (the page says when it opens), but done: as if they had read it before a change.
  await h.database.db.execute(
    sql`insert into lesson_completions (user_id, lesson_id, course_id) values (${learner.id}, ${later}, ${courseId})`,
  );
  for (const [score, passed, missed] of [
    [50, false, [2]],
    [100, true, []],
  ] as const) {
    await seedAttempt(h.database.db, { userId: learner.id, lessonId: quiz, courseId, versionId, score, passed, missed });
  }
  // The learner opens the course again: the outline sees it complete and issues the certificate.
  expect((await learnerApi.get(`/api/courses/${courseId}/outline`)).json().progress.complete).toBe(true);
  return { owner, learner, ownerApi, learnerApi, courseId };
}

/** The element that has the keyboard focus: its role (or tag) and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.getAttribute("role") ?? el.tagName.toLowerCase()}:${el.textContent?.trim() ?? ""}` : "none";
  });

/** Presses Tab until the focus is on `target` ("role:text"), at most `limit` times; fails naming where it was. */
async function tabTo(page: Page, target: string, limit = 40) {
  const seen: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now === target) return;
    seen.push(now);
  }
  throw new Error(`Tab never reached ${target}; it went through ${seen.join(" | ")}`);
}

describe("certificates", () => {
  it("the verification page works signed out, is not indexed, and says revoked after a revoke", { timeout: 180_000 }, async () => {
    const { ownerApi, learnerApi, courseId, learner } = await completedCourse();
    // The learner sees the last lesson locked with its day, and the certificate to download.
    const learnerPage = await h.newPage({ width: 1440, height: 900 });
    await signIn(learnerPage, learner);
    await learnerPage.goto(`/courses/${courseId}`);
    await learnerPage.getByRole("link", { name: "Download certificate" }).waitFor();
    await learnerPage.getByText(/Opens on /).waitFor();
    await learnerPage.screenshot({ path: screenshotPath("certificates-learner-course-1440-light.png") });
    await learnerPage.close();

    const code = (await learnerApi.get(`/api/courses/${courseId}/outline`)).json().progress.certificateCode as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const html = await fetch(`${h.baseUrl}/certificates/${code}`);
    expect(html.status).toBe(200);
    expect(html.headers.get("x-robots-tag")).toBe("noindex");
    expect(await html.text()).toContain('<meta name="robots" content="noindex" />');

    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const page = await h.newPage({ width, height: 900 });
      if (theme === "dark") await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await page.goto(`/certificates/${code}`);
      await page.getByRole("heading", { name: "This certificate is genuine" }).waitFor();
      expect(await page.getByText("Lena Learner").count()).toBe(1);
      expect(await page.getByText("Ocean Basics").count()).toBeGreaterThan(0);
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
      await page.screenshot({ path: screenshotPath(`certificates-verify-${width}-${theme}.png`), fullPage: true });
      await page.close();
    }

    expect((await ownerApi.post(`/api/certificates/${code}/revoke`)).statusCode).toBe(200);
    const revoked = await h.newPage({ width: 390, height: 900 });
    await revoked.goto(`/certificates/${code}`);
    await revoked.getByRole("heading", { name: "This certificate was revoked" }).waitFor();
    await revoked.screenshot({ path: screenshotPath("certificates-verify-revoked-390-light.png"), fullPage: true });
    await revoked.close();

    const missing = await h.newPage({ width: 1440, height: 900 });
    await missing.goto("/certificates/nosuchcertificate");
    await missing.getByRole("heading", { name: "Certificate not found" }).waitFor();
    await missing.close();
  });

  it("the owner sees the analytics, the CSV export and the certificates, and revokes one after confirming", {
    timeout: 180_000,
  }, async () => {
    const { owner, courseId } = await completedCourse();
    for (const { width, theme } of SCREENSHOT_VIEWS) {
      const page = await h.newPage({ width, height: 900 });
      if (theme === "dark") await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
      await signIn(page, owner);
      await page.goto(`/courses/${courseId}`);
      await page.getByRole("tab", { name: "Analytics" }).click();
      const panel = page.getByRole("tabpanel", { name: "Analytics" });
      await panel.getByText("Learners started").waitFor();
      await panel.getByText("Tide quiz").waitFor();
      expect(await panel.getByText('Most missed: "Second question" (wrong in 1 attempt)').count()).toBe(1);
      expect(await panel.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(`/api/courses/${courseId}/analytics/export`);
      await panel.getByText("Lena Learner").waitFor();
      expect(await seriousFindings(page), `axe on the Analytics tab at ${width} ${theme}`).toEqual([]);
      await page.screenshot({ path: screenshotPath(`certificates-analytics-${width}-${theme}.png`), fullPage: true });
      if (width === 390 && theme === "dark") {
        await panel.getByRole("button", { name: "Revoke" }).click();
        const dialog = page.getByRole("dialog", { name: "Revoke this certificate?" });
        await dialog.getByRole("button", { name: "Revoke" }).click();
        await panel.getByText("Revoked", { exact: true }).waitFor();
      }
      await page.close();
    }
  });

  it("the owner reaches the Analytics tab and its CSV export with the keyboard only; axe finds nothing serious", {
    timeout: 180_000,
  }, async () => {
    const { owner, courseId } = await completedCourse();
    const page = await h.newPage({ width: 1440, height: 900 });
    await signIn(page, owner);
    await page.goto(`/courses/${courseId}`);
    await page.getByRole("heading", { name: "Ocean Basics" }).waitFor();
    // Tab reaches the tab list on its selected tab; the arrows move along it and select (Radix: automatic activation).
    await tabTo(page, "tab:Course Content");
    // (Radix moves the focus on a timer after the keydown: wait for it.)
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => focused(page)).toBe("tab:Overview");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => focused(page)).toBe("tab:Analytics");
    expect(await page.getByRole("tab", { name: "Analytics" }).getAttribute("aria-selected")).toBe("true");
    const panel = page.getByRole("tabpanel", { name: "Analytics" });
    await panel.getByText("Tide quiz").waitFor();
    // Tab goes into the panel, then to Export CSV; Enter downloads the CSV.
    await tabTo(page, "a:Export CSV", 3);
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv).toContain("Tide quiz");
    // Then the certificates: the learner's page, and Revoke, which Enter opens and Escape closes.
    await tabTo(page, "a:Lena Learner", 3);
    await tabTo(page, "button:Revoke", 2);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Revoke this certificate?" });
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Radix gives the focus back to Revoke a moment after the dialog is gone (a timer): wait for it.
    await expect.poll(() => focused(page)).toBe("button:Revoke");
    expect(await seriousFindings(page), "axe on the Analytics tab").toEqual([]);
    await page.close();
  });

  it("the owner chooses the certificate's style in the course settings, at 1440 and 390 px; the learner's PDF follows", {
    timeout: 180_000,
  }, async () => {
    const { owner, ownerApi, learnerApi, courseId } = await completedCourse();
    expect((await ownerApi.get(`/api/courses/${courseId}`)).json().certificateStyle).toBe("classic");
    for (const [width, style] of [
      [1440, "Modern"],
      [390, "Minimal"],
    ] as const) {
      const page = await h.newPage({ width, height: 900 });
      await signIn(page, owner);
      await page.goto(`/courses/${courseId}/edit`);
      await page.getByRole("tab", { name: "Course Details" }).click();
      const select = page.getByRole("combobox", { name: "Certificate style" });
      await select.click();
      await page.getByRole("option", { name: style }).click();
      expect(await select.textContent()).toContain(style);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(await seriousFindings(page), `axe on the course details at ${width}`).toEqual([]);
      await page.screenshot({ path: screenshotPath(`certificates-style-setting-${width}-light.png`), fullPage: true });
      await page.getByRole("button", { name: "Save Course" }).click();
      await expect.poll(async () => (await ownerApi.get(`/api/courses/${courseId}`)).json().certificateStyle).toBe(style.toLowerCase());
      await page.close();
    }
    // The learner's certificate is drawn in the chosen style: Minimal's name is DejaVu Sans ExtraLight.
    const pdf = await learnerApi.get(`/api/courses/${courseId}/certificate`);
    expect(pdf.statusCode).toBe(200);
    expect((await fontsOf(new Uint8Array(pdf.rawPayload))).map((font) => font.slice(7))).toContain("DejaVuSans-ExtraLight");
  });
});
