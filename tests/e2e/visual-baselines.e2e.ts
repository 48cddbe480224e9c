import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { filesApi } from "../../src/shared/contracts/knowledge.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CallInput } from "../helpers/api-call.js";
import type { CookieClient } from "../helpers/build-test-app.js";
import { settledFile } from "../helpers/knowledge-files.js";
import { multipartFile } from "../helpers/multipart.js";
import { addQuestions, publish, seedAttempt, seedPublishedQuiz } from "../helpers/quiz-kit.js";
import { pointOpenAiAt } from "./support/ai-setup.js";
import { compareScreen, expectNoMismatches, type Mismatch } from "./support/compare-screens.js";
import { apiAs, registerViaApi, startHarness } from "./support/harness.js";

// Issue 44, "Screens nobody compares": the key screens at 1440 and 390 px, light and dark, compared with the baselines in
// tests/e2e/baselines (decision 076). One app, one browser, one seeded state for all six screens. What changes from run
// to run is fixed before it reaches the picture: the people, titles and texts are constants, the AI stand-in's reply
// echoes a constant question, every time shown is rewritten in the database to `SEEDED_AT` and the browser's clock stands
// at `NOW` (UTC, en-US), the certificate's code is set.

const h = startHarness();
let fake: FakeProvider;
const MODEL = "gpt-4o-mini";
const PASSWORD = "Str0ng!pass";
/** When everything shown happened, and the browser's "now", an hour later. */
const SEEDED_AT = "2026-03-04T09:30:00Z";
const NOW = "2026-03-04T10:30:00Z";
const CERTIFICATE_CODE = "OceanBasics-0001";

const person = (username: string, name: string) => ({ username, name, email: `${username}@example.com`, password: PASSWORD });
const ADA = person("ada", "Ada Lovelace");
const OLGA = person("olga", "Olga Owner");
const GRACE = person("grace", "Grace Hopper");
const OTHERS = [person("marie", "Marie Curie"), person("alan", "Alan Turing"), person("katherine", "Katherine Johnson")];

const seeded = { chatId: 0, courseId: 0, planetsId: 0, quizId: 0 };
const sessions = new Map<string, CookieClient>();

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  // The first account on the empty database is the admin; it points the seeded OpenAI platform at the stand-in.
  await registerViaApi(h, ADA);
  const adminApi = await apiAs(h, ADA);
  await pointOpenAiAt(adminApi, fake, { models: [MODEL], freeModels: [MODEL], defaultModel: MODEL });
  const olga = await registerViaApi(h, OLGA);
  const grace = await registerViaApi(h, GRACE);
  for (const other of OTHERS) await registerViaApi(h, other);
  await adminApi.ok(adminUsersApi.update, { params: { id: olga.id }, body: { planType: "earlyAccess" } });
  const olgaApi = await apiAs(h, OLGA);
  const graceApi = await apiAs(h, GRACE);
  sessions.set(ADA.username, adminApi);
  sessions.set(OLGA.username, olgaApi);
  sessions.set(GRACE.username, graceApi);

  // Grace's chat: a note from her library, a question, the stand-in's reply citing it.
  const note = multipartFile(
    "file",
    "tides.md",
    "text/markdown",
    new TextEncoder().encode(
      "# Tides\n\n## Spring tides\n\nSpring tides come twice a month, when the sun and the moon pull the sea in line. " +
        "The water then rises higher and falls lower than on other days.\n",
    ),
  );
  const fileId = (await graceApi.ok(filesApi.upload, {}, { multipart: note })).id;
  expect((await settledFile(graceApi, fileId)).status).toBe("ready");
  seeded.chatId = (await graceApi.ok(chatsApi.create, { body: {} })).id;
  const reply = await graceApi.call(chatsApi.reply, {
    params: { id: seeded.chatId },
    body: { content: "When do spring tides come, and why do they rise higher? [1]", fileIds: [fileId] },
  });
  expect(reply.status, reply.response.body).toBe(200);

  // Olga's course: two modules, readings and a quiz; Grace completes it and is given the certificate.
  const course = await olgaApi.ok(coursesApi.create, {
    body: { title: "Ocean Basics", description: "Tides, waves and currents for curious people.", isPublic: true, status: "published" },
  });
  seeded.courseId = course.id;
  const moduleOf = async (courseId: number, title: string, description = "") =>
    (await olgaApi.ok(coursesApi.createModule, { params: { id: courseId }, body: { title, description } })).id;
  const water = await moduleOf(seeded.courseId, "Water", "Why the sea comes and goes");
  const waves = await moduleOf(seeded.courseId, "Waves", "Wind on the water");
  const tides = await lessonOf(olgaApi, water, {
    title: "High and low water",
    type: "reading",
    content: "## The moon\n\nThe moon **pulls** the sea.",
  });
  const tideQuiz = await lessonOf(olgaApi, water, { title: "Tide quiz", type: "quiz", kind: "quiz", content: "" });
  const swell = await lessonOf(olgaApi, waves, {
    title: "Swell and chop",
    type: "reading",
    content: "## Swell\n\nSwell travels far from the storm.",
  });
  const versionId = await seedPublishedQuiz(h.database.db, tideQuiz);
  for (const id of [tides, swell]) await graceApi.ok(lessonsApi.complete, { params: { id } });
  await seedAttempt(h.database.db, {
    userId: grace.id,
    lessonId: tideQuiz,
    courseId: seeded.courseId,
    versionId,
    score: 100,
    passed: true,
    missed: [],
  });
  expect((await graceApi.ok(coursesApi.outline, { params: { id: seeded.courseId } })).progress.complete).toBe(true);
  await h.database.db.execute(sql`update certificates set code = ${CERTIFICATE_CODE}`);

  // Olga's second course, with a quiz of one question of each kind, published; Grace takes it.
  const planets = await olgaApi.ok(coursesApi.create, { body: { title: "Planets", description: "", isPublic: true, status: "published" } });
  seeded.planetsId = planets.id;
  const sky = await moduleOf(seeded.planetsId, "The sky");
  seeded.quizId = await lessonOf(olgaApi, sky, {
    title: "Check yourself",
    type: "quiz",
    kind: "quiz",
    content: "Four questions on **the sky**. Your answers are kept as you go.",
  });
  await addQuestions(olgaApi, seeded.quizId);
  await publish(olgaApi, seeded.quizId);

  // Every time shown, the same in every run.
  await fixTimes();
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

async function lessonOf(api: CookieClient, moduleId: number, body: CallInput<typeof lessonsApi.create>["body"]): Promise<number> {
  return (await api.ok(lessonsApi.create, { params: { id: moduleId }, body })).id;
}

/** The times the screens show, rewritten to `SEEDED_AT` (the users a minute apart, so their order holds). */
async function fixTimes() {
  const db = h.database.db;
  await db.execute(sql`update users set created_at = ${SEEDED_AT}::timestamptz + make_interval(mins => id), updated_at = ${SEEDED_AT}`);
  await db.execute(sql`update chats set created_at = ${SEEDED_AT}, updated_at = ${SEEDED_AT}`);
  await db.execute(sql`update messages set created_at = ${SEEDED_AT}, updated_at = ${SEEDED_AT}`);
  await db.execute(sql`update certificates set issued_at = ${SEEDED_AT}`);
}

/** Signs `page` in as `who` with the API session's cookie (no form), or out when undefined. */
async function actAs(page: Page, who: { username: string } | undefined): Promise<void> {
  await page.context().clearCookies();
  if (!who) return;
  const sid = sessions.get(who.username)?.sessionCookie?.slice("sid=".length);
  if (!sid) throw new Error(`no session for ${who.username}`);
  await page.context().addCookies([{ name: "sid", value: sid, url: h.baseUrl }]);
}

describe("the key screens", () => {
  // One page (one browser profile, its cache warm after the first screen) goes through the six screens; every view that
  // does not match is named at the end, so one run shows all that changed.
  it("look as their baselines at 1440 and 390 px, light and dark", async () => {
    const page = await h.newPage({ width: 1440, height: 900, timezoneId: "UTC", locale: "en-US" });
    await page.clock.setFixedTime(NOW);
    await page.addInitScript(() => localStorage.setItem("ui-theme", "system"));
    const mismatches: Mismatch[] = [];

    // Chat, with the reply and its source.
    await actAs(page, GRACE);
    await page.goto(`/chat/${seeded.chatId}`);
    const chip = page
      .locator('[data-message-role="assistant"]')
      .last()
      .getByRole("button", { name: /^Source 1: tides\.md/ });
    await chip.waitFor();
    await page.getByRole("button", { name: "Send message" }).waitFor();
    mismatches.push(...(await compareScreen(page, "chat")));

    // The citation panel, over the same chat.
    await chip.click();
    const panel = page.getByRole("dialog", { name: "Source 1" });
    await panel.getByLabel("Passage").getByText("Spring tides", { exact: false }).first().waitFor();
    mismatches.push(...(await compareScreen(page, "citation-panel")));

    // The quiz, started by the learner.
    await page.goto(`/courses/${seeded.planetsId}/lessons/${seeded.quizId}`);
    await page.getByText("Four questions on").waitFor();
    await page.getByRole("button", { name: "Start quiz" }).click();
    await page.getByRole("heading", { name: "0 of 4 answered" }).waitFor();
    await page.getByRole("radiogroup", { name: "Pick the planet" }).waitFor();
    mismatches.push(...(await compareScreen(page, "quiz")));

    // The course editor, its owner's.
    await actAs(page, OLGA);
    await page.goto(`/courses/${seeded.courseId}/edit`);
    await page.getByRole("heading", { name: "Edit Course" }).waitFor();
    await page.getByRole("region", { name: "Waves" }).getByText("Swell and chop").waitFor();
    mismatches.push(...(await compareScreen(page, "course-editor")));

    // Admin users, loaded in each view: the admin menu is open or collapsed by the width it mounts at.
    await actAs(page, ADA);
    await page.goto("/admin/users");
    mismatches.push(
      ...(await compareScreen(page, "admin-users", {
        inView: async () => {
          await page.reload();
          await page.getByRole("heading", { name: "User Management" }).waitFor();
          await page.getByText("@katherine", { exact: false }).filter({ visible: true }).first().waitFor();
        },
      })),
    );

    // The certificate's verification page, signed out.
    await actAs(page, undefined);
    await page.goto(`/certificates/${CERTIFICATE_CODE}`);
    await page.getByRole("heading", { name: "This certificate is genuine" }).waitFor();
    await page.getByText("Grace Hopper").waitFor();
    mismatches.push(...(await compareScreen(page, "certificate")));

    expectNoMismatches(mismatches);
  });
});
