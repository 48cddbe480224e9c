import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { lessonSources, messages } from "../../src/server/db/schema/index.js";
import { courseSlug } from "../../src/shared/catalog-slug.js";
import { apiAs, registerViaApi, startHarness, uniqueAccount } from "./support/harness.js";
import { shootViews } from "./support/screenshot-path.js";

// Decision 058 on the pages of readers who may not open the files: a shared chat's reply and a catalogue preview's
// lesson show their [n] as the chat's raised numbers and list the sources they name (name and page) under the text,
// never a passage.
const h = startHarness();

async function visitorPage() {
  const page = await h.newPage();
  await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
  return page;
}

/** The raised [n] and the Sources list under a text, as a visitor reads them. */
async function expectSources(page: Page, scope: string, n: number, label: string) {
  const text = page.locator(scope);
  const ref = text.locator("sup", { hasText: String(n) }).first();
  await ref.waitFor();
  expect(await ref.getAttribute("title")).toBe(label);
  expect(await ref.textContent()).toBe(`${n} (source: ${label})`);
  expect(await text.getByRole("list", { name: "Sources" }).getByText(label).count()).toBe(1);
  expect(await page.locator("main").textContent()).not.toContain("PRIVATE PASSAGE");
  // No "[n]" left as bare text.
  expect(await text.textContent()).not.toMatch(/\[\d\]/);
}

describe("sources on pages a visitor reads", () => {
  it("a shared chat lists the sources its reply cites", async () => {
    const owner = await registerViaApi(h, uniqueAccount("sharer"));
    const api = await apiAs(h, owner);
    const chatId = (await api.post("/api/chats", {})).json().id as number;
    expect((await api.post(`/api/chats/${chatId}/messages`, { content: "Where do tides come from?" })).statusCode).toBe(201);
    const reply = await api.post(`/api/chats/${chatId}/messages`, {
      content: "The moon pulls the oceans [1], and spring tides come at full moon [2].",
      role: "assistant",
    });
    const cited = (n: number, fileName: string, page: number | null) => ({
      n,
      fileId: 1,
      fileName,
      page,
      excerpt: "PRIVATE PASSAGE",
      chunkId: 1,
    });
    await h.database.db
      .update(messages)
      .set({ citations: [cited(1, "tides.pdf", 4), cited(2, "moon notes.md", null)] })
      .where(eq(messages.id, reply.json().id as number));
    const shared = await api.post(`/api/chats/${chatId}/shares`, {});
    expect(shared.statusCode, shared.body).toBe(201);

    const page = await visitorPage();
    await page.goto(`/share/${shared.json().token as string}`);
    await expectSources(page, '[data-message-role="assistant"]', 1, "tides.pdf, page 4");
    await expectSources(page, '[data-message-role="assistant"]', 2, "moon notes.md");
    await shootViews(page, "named-sources-share", { fullPage: true });
    await page.close();
  });

  it("a catalogue preview lists the sources its lesson numbers", async () => {
    const owner = await registerViaApi(h, uniqueAccount("author"));
    const api = await apiAs(h, owner);
    const course = await api.post("/api/courses", { title: "Tides for Beginners", description: "", isPublic: true, status: "published" });
    expect(course.statusCode, course.body).toBe(201);
    const courseId = course.json().id as number;
    const module = await api.post(`/api/courses/${courseId}/modules`, { title: "The moon" });
    const lesson = await api.post(`/api/modules/${module.json().id}/lessons`, {
      title: "Why the sea rises",
      type: "reading",
      content: "# Why the sea rises\n\nThe moon pulls the oceans [1]. Your own notes say so too [2].",
    });
    expect(lesson.statusCode, lesson.body).toBe(201);
    const source = { lessonId: lesson.json().id as number, courseId, passage: "PRIVATE PASSAGE" };
    await h.database.db.insert(lessonSources).values([
      { ...source, n: 1, kind: "file", fileName: "tides.pdf", page: 4 },
      { ...source, n: 2, kind: "message" },
    ]);

    const page = await visitorPage();
    await page.goto(`/catalog/${courseSlug("Tides for Beginners", courseId)}/preview`);
    await expectSources(page, "article", 1, "tides.pdf, page 4");
    await expectSources(page, "article", 2, "chat · message");
    await shootViews(page, "named-sources-catalog-preview", { fullPage: true });
    await page.close();
  });
});
