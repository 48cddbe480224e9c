import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { courseSlug } from "../../src/shared/catalog-slug.js";
import { audit } from "./support/axe.js";
import { acceptTerms, apiAs, type Harness, registerViaApi, signIn, startHarness, uniqueAccount } from "./support/harness.js";
import { SCREENSHOT_VIEWS, screenshotPath } from "./support/screenshot-path.js";

// Issue 33: the public course catalogue in Chromium. A visitor browses, searches, opens a course's landing page, reads
// the preview lesson, and "Start learning" takes them through registration back to the course; a signed-in user goes
// straight there. Both pages at 1440 and 390 px, light and dark, signed out and signed in; axe; first-screen scripts.

let course: { id: number; slug: string };
let mountain: { id: number; slug: string };
let walker: { username: string; password: string };
let teacher: { username: string; password: string };

const h: Harness = startHarness({
  ready: async (harness) => {
    await registerViaApi(harness, uniqueAccount("admin"));
    const owner = await registerViaApi(harness, { ...uniqueAccount("owner"), name: "Tess Teacher" });
    walker = await registerViaApi(harness, uniqueAccount("reader"));
    const api = await apiAs(harness, owner);
    const make = async (title: string, description: string, modules: [string, [string, string][]][]) => {
      const id = (await api.post("/api/courses", { title, description, isPublic: true, status: "published" })).json().id as number;
      for (const [moduleTitle, lessons] of modules) {
        const moduleId = (await api.post(`/api/courses/${id}/modules`, { title: moduleTitle })).json().id as number;
        for (const [lessonTitle, content] of lessons)
          expect((await api.post(`/api/modules/${moduleId}/lessons`, { title: lessonTitle, type: "reading", content })).statusCode).toBe(
            201,
          );
      }
      return { id, slug: courseSlug(title, id) };
    };
    teacher = owner;
    mountain = await make("Mountain Geology", "Rocks, faults and the slow life of mountains.", [
      ["Rocks", [["Igneous rocks", "# Igneous"]]],
    ]);
    course = await make("Tidepool Ecology", "Life between the tides: anemones, crabs and the rhythm of the sea.", [
      [
        "The shore",
        [
          ["Reading the tide", "## At low tide\n\nTwice a day the sea **retreats**, and a small world opens.\n\n- Anemones\n- Crabs"],
          ["Zones of the shore", "Splash zone, high, middle and low."],
        ],
      ],
      ["Creatures", [["Anemones up close", "Tentacles and stings."]]],
    ]);
    await api.post("/api/courses", { title: "Hidden Draft Course", description: "", isPublic: true, status: "draft" });
  },
});

async function themed(width: number, theme: "light" | "dark", account?: { username: string; password: string }): Promise<Page> {
  const page = await h.newPage({ width, height: 900 });
  if (theme === "dark") await page.addInitScript(() => localStorage.setItem("ui-theme", "dark"));
  if (account) await signIn(page, account);
  return page;
}

async function expectNoFindings(page: Page, where: string) {
  const findings = (await audit(page)).map((f) => `${f.rule} ${f.target}: ${f.summary}`);
  expect(findings, `axe on ${where}`).toEqual([]);
}

/** The gzip size of every script the page fetched on its way to `ready`, and whether the signed-in app's entry was among them. */
async function firstScreenScripts(page: Page, url: string, ready: () => Promise<unknown>) {
  const sizes: Promise<{ url: string; gzip: number }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    sizes.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).byteLength })));
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await ready();
  const scripts = await Promise.all(sizes);
  return { kib: scripts.reduce((sum, script) => sum + script.gzip, 0) / 1024, app: scripts.some((s) => /\/assets\/index-/.test(s.url)) };
}

describe("the public course catalogue", () => {
  it("a visitor browses, searches, opens a course, reads the preview, and Start learning → register → the course", {
    timeout: 180_000,
  }, async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses" }).click();
    await page.getByRole("heading", { name: "Course catalog", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Tidepool Ecology" }).waitFor();
    await page.getByRole("link", { name: "Mountain Geology" }).waitFor();
    expect(await page.getByText("Hidden Draft Course").count()).toBe(0);
    expect(await page.title()).toBe("Course catalog · Lumora");

    await page.getByLabel("Search courses").fill("tides");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.search === "?q=tides");
    await page.getByText("Courses matching “tides”").waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Mountain Geology" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Tidepool Ecology" }).count()).toBe(1);

    await page.getByLabel("Search courses").fill("volcano unicorn");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("heading", { name: "No courses match “volcano unicorn”" }).waitFor();
    await page.screenshot({ path: screenshotPath("catalog-no-results-1440-light.png") });
    await page.getByRole("link", { name: "Show all courses" }).click();
    await page.getByRole("link", { name: "Mountain Geology" }).waitFor();

    await page.getByRole("link", { name: "Tidepool Ecology" }).click();
    await page.waitForURL(`**/catalog/${course.slug}`);
    await page.getByRole("heading", { name: "Tidepool Ecology", level: 1 }).waitFor();
    await page.getByText("Tess Teacher").waitFor();
    await page.getByText("3 lessons").first().waitFor();
    await page.getByRole("heading", { name: "Module 2: Creatures" }).waitFor();
    await page.getByText("Zones of the shore").waitFor();

    await page.getByRole("link", { name: "Read the first lesson" }).click();
    await page.getByRole("heading", { name: "Reading the tide", level: 1 }).waitFor();
    expect(await page.locator("article strong", { hasText: "retreats" }).count()).toBe(1);
    await page.screenshot({ path: screenshotPath("catalog-preview-1440-light.png"), fullPage: true });

    await page.getByRole("link", { name: "Start learning" }).click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("next") === `/courses/${course.id}`);
    const account = uniqueAccount("learner");
    await page.getByLabel("Username").fill(account.username);
    await page.getByLabel("Full Name").fill(account.name);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(account.password);
    await page.getByLabel("Confirm Password").fill(account.password);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: /Free/ }).click();
    await acceptTerms(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((url) => url.pathname === `/courses/${course.id}`);
    await page.getByRole("heading", { name: "Tidepool Ecology" }).first().waitFor();
    await page.getByText("Reading the tide").first().waitFor();
  });

  it("a visitor opening a landing page directly gets it drawn by the server, hydrated with no request for its data", async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    const reads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/catalog")) reads.push(request.url());
    });
    await page.goto(`/catalog/${course.slug}`);
    await page.getByRole("heading", { name: "Tidepool Ecology", level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(reads).toEqual([]);
    // The server drew the head; the app names the page again once its code has loaded.
    await expect
      .poll(() => page.locator('meta[property="og:title"]').getAttribute("content"), { timeout: 15_000 })
      .toBe("Tidepool Ecology · Course catalog · Lumora");
    expect(await page.getByRole("link", { name: "Start learning" }).getAttribute("href")).toBe(
      `/auth?tab=register&next=${encodeURIComponent(`/courses/${course.id}`)}`,
    );
    // An address with an older title moves to the current one.
    await page.goto(`/catalog/tidepools-${course.id}`);
    await page.waitForURL(`**/catalog/${course.slug}`);
  });

  it("a signed-in user goes straight to the course from Start learning", async () => {
    const page = await themed(1440, "light", walker);
    await page.goto(`/catalog/${course.slug}`);
    await page.getByRole("heading", { name: "Tidepool Ecology", level: 1 }).waitFor();
    const start = page.getByRole("link", { name: "Start learning" });
    expect(await start.getAttribute("href")).toBe(`/courses/${course.id}`);
    await start.click();
    await page.waitForURL((url) => url.pathname === `/courses/${course.id}`);
    await page.getByText("Zones of the shore").first().waitFor();
  });

  it("keeps both pages' first screen under 100 KiB of scripts (gzip), without the signed-in app", async () => {
    for (const [url, heading] of [
      ["/catalog", "Course catalog"],
      [`/catalog/${course.slug}`, "Tidepool Ecology"],
    ] as const) {
      const page = await h.newPage();
      const { kib, app } = await firstScreenScripts(page, url, () => page.getByRole("heading", { name: heading, level: 1 }).waitFor());
      console.log(`${url}: ${kib.toFixed(1)} KiB of first-screen scripts (gzip)`);
      expect(app, `${url} loads the signed-in app's entry`).toBe(false);
      expect(kib, `${url}: first-screen scripts in KiB, gzip`).toBeLessThanOrEqual(100);
      await page.close();
    }
  });

  it("the owner turns the listing off in the course settings: the landing page is gone at once", async () => {
    expect((await fetch(`${h.baseUrl}/catalog/${mountain.slug}`)).status).toBe(200);
    const page = await themed(1440, "light", teacher);
    await page.goto(`/courses/${mountain.id}/edit`);
    await page.getByRole("tab", { name: "Course Details" }).click();
    const listed = page.getByRole("switch", { name: "List in the public catalog" });
    expect(await listed.getAttribute("aria-checked")).toBe("true");
    await listed.click();
    expect(await listed.getAttribute("aria-checked")).toBe("false");
    await page.screenshot({ path: screenshotPath("catalog-owner-switch-1440-light.png") });
    await page.getByRole("button", { name: "Save Course" }).click();
    await expect.poll(async () => (await fetch(`${h.baseUrl}/catalog/${mountain.slug}`)).status).toBe(404);
    expect(await (await fetch(`${h.baseUrl}/sitemap.xml`)).text()).not.toContain(mountain.slug);
  });

  it("looks right at 1440 and 390 px, light and dark, signed out and signed in, with no axe findings", { timeout: 240_000 }, async () => {
    for (const signedIn of [false, true]) {
      for (const { width, theme } of SCREENSHOT_VIEWS) {
        const who = signedIn ? "signed-in" : "signed-out";
        const page = await themed(width, theme, signedIn ? walker : undefined);
        await page.goto("/catalog");
        await page.getByRole("link", { name: "Tidepool Ecology" }).waitFor();
        await expectNoFindings(page, `/catalog ${who} ${width} ${theme}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: screenshotPath(`catalog-list-${who}-${width}-${theme}.png`), fullPage: true });
        await page.goto(`/catalog/${course.slug}`);
        await page.getByRole("heading", { name: "Tidepool Ecology", level: 1 }).waitFor();
        await expectNoFindings(page, `/catalog/:slug ${who} ${width} ${theme}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: screenshotPath(`catalog-course-${who}-${width}-${theme}.png`), fullPage: true });
        await page.close();
      }
    }
  });
});
