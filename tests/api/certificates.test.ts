import { sql } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonLockedMessage, QUESTION_MESSAGES } from "../../src/shared/contracts/assessment.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { fontsOf } from "../helpers/pdf-fonts.js";
import { seedAttempt, seedPublishedQuiz } from "../helpers/quiz-kit.js";

// Issue 32: drip release, completion (reading lessons done, published quizzes passed), certificates (the PDF, public
// verification, revoke, the owner's list) and the owner's analytics. Quiz results are made by inserting quiz_versions
// and quiz_attempts rows, as the quiz routes would leave them.

const ORIGIN = "https://learn.example.test";

let t: TestApp;
let admin: CookieClient;
let owner: CookieClient;
let learner: CookieClient;
let other: CookieClient;
let learnerId: number;
let otherId: number;
let learnerName: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_ORIGIN: ORIGIN } });
  admin = (await registerAndSignIn(t.app)).client;
  owner = (await registerAndSignIn(t.app, { name: "Olga Owner" })).client;
  const l = await registerAndSignIn(t.app, { name: "Lena Learner" });
  learner = l.client;
  learnerId = l.user.id;
  learnerName = l.body.name as string;
  const o = await registerAndSignIn(t.app, { name: "Otto Other" });
  other = o.client;
  otherId = o.user.id;
});
afterAll(() => t.close());

const run = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const rowsOf = async <T>(query: ReturnType<typeof sql>) => (await run(query)).rows as T[];

async function publicCourse(title: string) {
  const id = (await owner.post("/api/courses", { title })).json().id as number;
  expect((await owner.patch(`/api/courses/${id}`, { status: "published", isPublic: true })).statusCode).toBe(200);
  return id;
}
async function addModule(courseId: number, body: Record<string, unknown> = {}) {
  const res = await owner.post(`/api/courses/${courseId}/modules`, { title: "Module", ...body });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}
async function addLesson(moduleId: number, body: Record<string, unknown> = {}) {
  const res = await owner.post(`/api/modules/${moduleId}/lessons`, { title: "Lesson", type: "reading", content: "Text", ...body });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}
const outlineOf = async (client: CookieClient, courseId: number) => {
  const res = await client.get(`/api/courses/${courseId}/outline`);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    modules: { lessons: { id: number; kind: string; locked: boolean; opensAt: string | null; completed: boolean }[] }[];
    progress: { completed: number; total: number; complete: boolean; certificateCode: string | null };
    learners: { started: number; finished: number } | null;
  };
};
const lessonIn = (outline: Awaited<ReturnType<typeof outlineOf>>, id: number) =>
  outline.modules.flatMap((m) => m.lessons).find((l) => l.id === id);

describe("drip release", () => {
  it("locks a lesson until N days after the learner started, with the date; never for the owner or an admin", async () => {
    const courseId = await publicCourse("Drip course");
    const first = await addModule(courseId);
    const open = await addLesson(first);
    const lessonDrip = await addLesson(first, { releaseAfterDays: 3 });
    const later = await addModule(courseId, { releaseAfterDays: 7 });
    const moduleDrip = await addLesson(later);
    const overridden = await addLesson(later, { releaseAfterDays: 0 });

    expect((await learner.get(`/api/lessons/${open}`)).statusCode).toBe(200);
    const [enrolment] = await rowsOf<{ started_at: string | Date }>(
      sql`select started_at from course_enrollments where user_id = ${learnerId} and course_id = ${courseId}`,
    );
    const started = new Date(enrolment?.started_at ?? 0).getTime();
    expect(Date.now() - started).toBeLessThan(60_000);

    const locked = await learner.get(`/api/lessons/${lessonDrip}`);
    expect(locked.statusCode).toBe(403);
    const opensAt = new Date(started + 3 * 86_400_000).toISOString();
    expect(locked.json()).toEqual({ message: lessonLockedMessage(opensAt), opensAt });
    expect((await learner.get(`/api/lessons/${moduleDrip}`)).json().opensAt).toBe(new Date(started + 7 * 86_400_000).toISOString());
    expect((await learner.get(`/api/lessons/${overridden}`)).statusCode).toBe(200);
    // Every route that gives the lesson goes through the same check: marking it done too.
    expect((await learner.post(`/api/lessons/${lessonDrip}/complete`)).statusCode).toBe(403);
    // The module's list gives a locked lesson without its content; the owner gets it.
    const listed = (await learner.get(`/api/modules/${first}/lessons`)).json() as { id: number; content: string }[];
    expect(listed.map((l) => [l.id, l.content])).toEqual([
      [open, "Text"],
      [lessonDrip, ""],
    ]);
    expect(((await owner.get(`/api/modules/${first}/lessons`)).json() as { content: string }[]).map((l) => l.content)).toEqual([
      "Text",
      "Text",
    ]);

    const outline = await outlineOf(learner, courseId);
    expect(lessonIn(outline, lessonDrip)).toMatchObject({ locked: true, opensAt, kind: "reading" });
    expect(lessonIn(outline, open)).toMatchObject({ locked: false, opensAt: null });
    expect(lessonIn(outline, overridden)).toMatchObject({ locked: false, opensAt: null });
    for (const client of [owner, admin]) {
      expect((await client.get(`/api/lessons/${lessonDrip}`)).statusCode).toBe(200);
      expect(lessonIn(await outlineOf(client, courseId), lessonDrip)).toMatchObject({ locked: false, opensAt: null });
    }
    // The owner and the admin did not start the course: only the learner did, once.
    expect((await outlineOf(owner, courseId)).learners).toEqual({ started: 1, finished: 0 });

    // Four days later the lesson is open; the module's seven days are not over.
    await run(
      sql`update course_enrollments set started_at = started_at - interval '4 days' where user_id = ${learnerId} and course_id = ${courseId}`,
    );
    expect((await learner.get(`/api/lessons/${lessonDrip}`)).statusCode).toBe(200);
    expect((await learner.get(`/api/lessons/${moduleDrip}`)).statusCode).toBe(403);
    const after = await outlineOf(learner, courseId);
    expect(lessonIn(after, lessonDrip)?.locked).toBe(false);
    expect(lessonIn(after, moduleDrip)?.locked).toBe(true);
  });

  it("starts the course on the outline too, with one row however often it is read", async () => {
    const courseId = await publicCourse("Outline start");
    await addLesson(await addModule(courseId));
    await outlineOf(other, courseId);
    await outlineOf(other, courseId);
    const rows = await rowsOf<{ n: number }>(sql`select count(*)::int as n from course_enrollments where course_id = ${courseId}`);
    expect(Number(rows[0]?.n)).toBe(1);
  });
});

describe("completion and certificates", () => {
  let courseId: number;
  let reading: number;
  let quiz: number;
  let versionId: number;

  beforeAll(async () => {
    courseId = await publicCourse("Rust for <Everyone>");
    const m = await addModule(courseId);
    reading = await addLesson(m);
    quiz = await addLesson(m, { kind: "quiz", type: "quiz", content: "" });
    await addLesson(m, { title: "Unpublished quiz", kind: "quiz", type: "quiz", content: "" });
    versionId = await seedPublishedQuiz(t.database.db, quiz);
  });

  it("counts reading lessons done and published quizzes passed; a failed quiz is not complete", async () => {
    expect((await learner.post(`/api/lessons/${reading}/complete`)).statusCode).toBe(200);
    let outline = await outlineOf(learner, courseId);
    expect(outline.progress).toMatchObject({ completed: 1, total: 2, complete: false, certificateCode: null });

    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 50, passed: false, missed: [2] });
    expect((await outlineOf(learner, courseId)).progress).toMatchObject({ completed: 1, total: 2, complete: false });
    const refused = await learner.get(`/api/courses/${courseId}/certificate`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(QUESTION_MESSAGES.notComplete);

    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    outline = await outlineOf(learner, courseId);
    expect(outline.progress).toMatchObject({ completed: 2, total: 2, complete: true });
    expect(outline.progress.certificateCode).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(lessonIn(outline, quiz)?.completed).toBe(true);
    expect((await outlineOf(owner, courseId)).learners).toEqual({ started: 1, finished: 1 });
  });

  it("gives the PDF with the name, the course, the owner and the verification URL", async () => {
    const res = await learner.get(`/api/courses/${courseId}/certificate`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const code = res.headers["x-certificate-code"] as string;
    expect(code).toBe((await outlineOf(learner, courseId)).progress.certificateCode);
    const { text } = await extractText(new Uint8Array(res.rawPayload), { mergePages: true });
    expect(text).toContain(learnerName);
    expect(text).toContain("Rust for <Everyone>");
    expect(text).toContain("Olga Owner");
    expect(text).toContain(`${ORIGIN}/certificates/${code}`);
    // Not complete: the owner, another reader.
    expect((await other.get(`/api/courses/${courseId}/certificate`)).json().message).toBe(QUESTION_MESSAGES.notComplete);
    expect((await owner.get(`/api/courses/${courseId}/certificate`)).statusCode).toBe(403);
    expect((await new CookieClient(t.app).get(`/api/courses/${courseId}/certificate`)).statusCode).toBe(401);
  });

  it("prints a name in any script as written, in fonts embedded as subsets, and stays under 40 KB", async () => {
    // Decision 062: DejaVu for Latin, Greek, Cyrillic and Arabic letters; Noto Sans JP, SC and KR for what it lacks.
    const names = {
      japanese: "山田 花子",
      chinese: "张伟",
      korean: "김민준",
      cyrillic: "Дмитрий Иванов",
      greek: "Ελένη Παπαδοπούλου",
      arabic: "ليلى حسن",
      latin: "José Núñez Zoë Łukasiewicz",
    };
    const author = await registerAndSignIn(t.app, { name: "이서연" });
    const id = (await author.client.post("/api/courses", { title: "Ελληνικά για όλους 山田 🎓" })).json().id as number;
    expect((await author.client.patch(`/api/courses/${id}`, { status: "published", isPublic: true })).statusCode).toBe(200);
    const m = (await author.client.post(`/api/courses/${id}/modules`, { title: "Μέρος" })).json().id as number;
    const lesson = (await author.client.post(`/api/modules/${m}/lessons`, { title: "Α", type: "reading", content: "Text" })).json()
      .id as number;
    for (const [script, name] of Object.entries(names)) {
      const learnerOf = await registerAndSignIn(t.app, { name });
      expect((await learnerOf.client.post(`/api/lessons/${lesson}/complete`)).statusCode).toBe(200);
      const res = await learnerOf.client.get(`/api/courses/${id}/certificate`);
      expect(res.statusCode).toBe(200);
      const bytes = new Uint8Array(res.rawPayload);
      // Subsets: the CJK fonts are megabytes, DejaVu 0.7 MB a face; a certificate is 15-26 KB (decision 062).
      expect(bytes.length, script).toBeLessThan(40_000);
      // pdf.js takes the buffer it reads (it is empty afterwards): it reads a copy.
      const { text } = await extractText(bytes.slice(), { mergePages: true });
      const lines = text.split("\n");
      expect(lines, script).toContain(name);
      expect(lines, script).toContain("이서연");
      // Emoji are in no font: one replacement mark, and the rest of the line stays.
      expect(lines, script).toContain("Ελληνικά για όλους 山田 \ufffd");
      expect(text).toContain(`${ORIGIN}/certificates/${res.headers["x-certificate-code"]}`);
      const fonts = await fontsOf(bytes);
      // Every font is a subset, named so ("ABCDEF+", PDF 32000 9.6.4).
      for (const font of fonts) expect(font, script).toMatch(/^[A-Z]{6}\+/);
      const cjk = fonts.filter((font) => /NotoSans(JP|SC|KR)/.test(font));
      if (script === "japanese") expect(cjk.some((font) => font.includes("NotoSansJP"))).toBe(true);
      if (script === "chinese") expect(cjk.some((font) => font.includes("NotoSansSC"))).toBe(true);
      // Hangul: the owner's name is Korean on every certificate.
      expect(
        cjk.some((font) => font.includes("NotoSansKR")),
        script,
      ).toBe(true);
    }
  });

  it("prints the course's style, chosen by its owner (Classic by default), with the product's name at the top", async () => {
    const id = await publicCourse("Styled course");
    expect((await owner.get(`/api/courses/${id}`)).json().certificateStyle).toBe("classic");
    const lesson = await addLesson(await addModule(id));
    const styled = await registerAndSignIn(t.app, { name: "Stella Style" });
    expect((await styled.client.post(`/api/lessons/${lesson}/complete`)).statusCode).toBe(200);
    const printed = async () => {
      const res = await styled.client.get(`/api/courses/${id}/certificate`);
      expect(res.statusCode).toBe(200);
      const bytes = new Uint8Array(res.rawPayload);
      const { text } = await extractText(bytes.slice(), { mergePages: true });
      return { fonts: (await fontsOf(bytes)).map((font) => font.slice(7)), lines: text.split("\n") };
    };
    // Classic: serif letters; the product's name first.
    const classic = await printed();
    expect(classic.lines[0]).toBe("Lumora");
    expect(classic.lines).toContain("Stella Style");
    expect(classic.fonts).toContain("DejaVuSerif-Bold");
    expect(classic.fonts.some((font) => font.startsWith("DejaVuSans"))).toBe(false);

    const modern = await owner.patch(`/api/courses/${id}`, { certificateStyle: "modern" });
    expect(modern.statusCode).toBe(200);
    expect(modern.json().certificateStyle).toBe("modern");
    expect((await printed()).fonts.sort()).toEqual(["DejaVuSans", "DejaVuSans-Bold"]);
    // The admin may choose too; Minimal sets the name in DejaVu's extra light.
    expect((await admin.patch(`/api/courses/${id}`, { certificateStyle: "minimal" })).statusCode).toBe(200);
    expect((await printed()).fonts).toContain("DejaVuSans-ExtraLight");

    // Refused: an unknown style, another user, signed out; the style stays.
    const bad = await owner.patch(`/api/courses/${id}`, { certificateStyle: "fancy" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.certificateStyle).toBe("Choose Classic, Modern or Minimal");
    expect((await other.patch(`/api/courses/${id}`, { certificateStyle: "classic" })).statusCode).toBe(403);
    const signedOut = await t.app.inject({ method: "PATCH", url: `/api/courses/${id}`, payload: { certificateStyle: "classic" } });
    expect(signedOut.statusCode).toBe(401);
    expect((await owner.get(`/api/courses/${id}`)).json().certificateStyle).toBe("minimal");
  });

  it("issues one certificate under parallel requests", async () => {
    await run(sql`insert into lesson_completions (user_id, lesson_id, course_id) values (${otherId}, ${reading}, ${courseId})`);
    await seedAttempt(t.database.db, { userId: otherId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    const answers = await Promise.all(Array.from({ length: 6 }, () => other.get(`/api/courses/${courseId}/certificate`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.headers["x-certificate-code"])).size).toBe(1);
    const rows = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from certificates where course_id = ${courseId} and user_id = ${otherId}`,
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("verifies signed out; revoke by the owner or an admin only, and then says revoked", async () => {
    const code = (await outlineOf(learner, courseId)).progress.certificateCode as string;
    const otherCode = (await outlineOf(other, courseId)).progress.certificateCode as string;
    const visitor = new CookieClient(t.app);
    const verified = await visitor.get(`/api/certificates/${code}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.headers["x-robots-tag"]).toBe("noindex");
    expect(verified.json()).toMatchObject({
      code,
      learnerName,
      courseTitle: "Rust for <Everyone>",
      ownerName: "Olga Owner",
      revoked: false,
      revokedAt: null,
    });
    expect((await visitor.get("/api/certificates/nosuchcertificate")).statusCode).toBe(404);
    expect((await visitor.get("/api/certificates/bad!code")).statusCode).toBe(400);

    const list = await owner.get(`/api/courses/${courseId}/certificates`);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { code: string }[]).map((c) => c.code).sort()).toEqual([code, otherCode].sort());
    expect((await admin.get(`/api/courses/${courseId}/certificates`)).statusCode).toBe(200);
    expect((await learner.get(`/api/courses/${courseId}/certificates`)).statusCode).toBe(404);
    expect((await visitor.get(`/api/courses/${courseId}/certificates`)).statusCode).toBe(401);

    expect((await learner.post(`/api/certificates/${code}/revoke`)).statusCode).toBe(404);
    expect((await visitor.post(`/api/certificates/${code}/revoke`)).statusCode).toBe(401);
    expect((await visitor.get(`/api/certificates/${code}`)).json().revoked).toBe(false);
    const revoked = await owner.post(`/api/certificates/${code}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked).toBe(true);
    expect((await visitor.get(`/api/certificates/${code}`)).json()).toMatchObject({ revoked: true, revokedAt: expect.any(String) });
    expect((await learner.get(`/api/courses/${courseId}/certificate`)).json().message).toBe(QUESTION_MESSAGES.certificateRevoked);

    expect((await admin.post(`/api/certificates/${otherCode}/revoke`)).json().revoked).toBe(true);
    expect((await visitor.get(`/api/certificates/${otherCode}`)).json().revoked).toBe(true);
  });
});

describe("analytics", () => {
  it("counts learners, attempts, scores, pass rates and the most missed question from stored results", async () => {
    const courseId = await publicCourse('=HYPERLINK("http://evil","x")');
    const m = await addModule(courseId);
    const reading = await addLesson(m);
    const quiz = await addLesson(m, { title: "+Quiz one", kind: "quiz", type: "quiz", content: "" });
    const empty = await addLesson(m, { title: "Quiz two", kind: "quiz", type: "quiz", content: "" });
    const versionId = await seedPublishedQuiz(t.database.db, quiz);
    await learner.get(`/api/lessons/${reading}`);
    await other.get(`/api/lessons/${reading}`);
    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 50, passed: false, missed: [2] });
    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    await seedAttempt(t.database.db, { userId: otherId, lessonId: quiz, courseId, versionId, score: 0, passed: false, missed: [1, 2] });
    // An open attempt is not counted.
    await run(
      sql`insert into quiz_attempts (lesson_id, course_id, user_id, version_id) values (${quiz}, ${courseId}, ${otherId}, ${versionId})`,
    );
    await learner.post(`/api/lessons/${reading}/complete`);

    const res = await owner.get(`/api/courses/${courseId}/analytics`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      learnersStarted: 2,
      learnersCompleted: 1,
      quizzes: [
        {
          lessonId: quiz,
          title: "+Quiz one",
          attempts: 3,
          averageScore: 50,
          passRate: 33.3,
          mostMissed: { questionId: 2, prompt: "Second question", missed: 2 },
        },
        { lessonId: empty, title: "Quiz two", attempts: 0, averageScore: null, passRate: null, mostMissed: null },
      ],
    });
    expect((await admin.get(`/api/courses/${courseId}/analytics`)).statusCode).toBe(200);
    expect((await learner.get(`/api/courses/${courseId}/analytics`)).statusCode).toBe(404);
    expect((await learner.get(`/api/courses/${courseId}/analytics/export`)).statusCode).toBe(404);
    expect((await new CookieClient(t.app).get(`/api/courses/${courseId}/analytics`)).statusCode).toBe(401);
    expect((await owner.get("/api/courses/99999999/analytics")).statusCode).toBe(404);

    const csv = await owner.get(`/api/courses/${courseId}/analytics/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      "Course,Learners started,Learners completed,Quiz,Attempts,Average score (%),Pass rate (%),Most missed question,Times missed",
    );
    // A formula is written as text: a leading quote, and quoted where it holds a comma or a quote.
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"",""x"")",2,1,'+Quiz one,3,50,33.3,Second question,2`);
    expect(lines[2]).toBe(`"'=HYPERLINK(""http://evil"",""x"")",2,1,Quiz two,0,,,,`);
  });
});
