import { sql } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificatesApi, lessonLockedMessage, QUESTION_MESSAGES } from "../../src/shared/contracts/assessment.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { type CallInput, callApp } from "../helpers/api-call.js";
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
  const { id } = await owner.ok(coursesApi.create, { body: { title } });
  expect((await owner.call(coursesApi.update, { params: { id }, body: { status: "published", isPublic: true } })).status).toBe(200);
  return id;
}
async function addModule(courseId: number, body: Partial<CallInput<typeof coursesApi.createModule>["body"]> = {}) {
  const res = await owner.call(coursesApi.createModule, { params: { id: courseId }, body: { title: "Module", ...body } });
  expect(res.status).toBe(201);
  return res.data.id;
}
async function addLesson(moduleId: number, body: Partial<CallInput<typeof lessonsApi.create>["body"]> = {}) {
  const res = await owner.call(lessonsApi.create, {
    params: { id: moduleId },
    body: { title: "Lesson", type: "reading", content: "Text", ...body },
  });
  expect(res.status).toBe(201);
  return res.data.id;
}
const outlineOf = (client: CookieClient, courseId: number) => client.ok(coursesApi.outline, { params: { id: courseId } });
const lessonOf = (client: CookieClient, id: number) => client.call(lessonsApi.get, { params: { id } });
const certificateOf = (client: CookieClient, courseId: number) => client.call(certificatesApi.certificate, { params: { id: courseId } });
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

    expect((await lessonOf(learner, open)).status).toBe(200);
    const [enrolment] = await rowsOf<{ started_at: string | Date }>(
      sql`select started_at from course_enrollments where user_id = ${learnerId} and course_id = ${courseId}`,
    );
    const started = new Date(enrolment?.started_at ?? 0).getTime();
    expect(Date.now() - started).toBeLessThan(60_000);

    const locked = await lessonOf(learner, lessonDrip);
    expect(locked.status).toBe(403);
    const opensAt = new Date(started + 3 * 86_400_000).toISOString();
    expect(locked.error).toEqual({ message: lessonLockedMessage(opensAt), opensAt });
    expect((await lessonOf(learner, moduleDrip)).error.opensAt).toBe(new Date(started + 7 * 86_400_000).toISOString());
    expect((await lessonOf(learner, overridden)).status).toBe(200);
    // Every route that gives the lesson goes through the same check: marking it done too.
    expect((await learner.call(lessonsApi.complete, { params: { id: lessonDrip } })).status).toBe(403);
    // The module's list gives a locked lesson without its content; the owner gets it.
    const listed = await learner.ok(lessonsApi.list, { params: { id: first } });
    expect(listed.map((l) => [l.id, l.content])).toEqual([
      [open, "Text"],
      [lessonDrip, ""],
    ]);
    expect((await owner.ok(lessonsApi.list, { params: { id: first } })).map((l) => l.content)).toEqual(["Text", "Text"]);

    const outline = await outlineOf(learner, courseId);
    expect(lessonIn(outline, lessonDrip)).toMatchObject({ locked: true, opensAt, kind: "reading" });
    expect(lessonIn(outline, open)).toMatchObject({ locked: false, opensAt: null });
    expect(lessonIn(outline, overridden)).toMatchObject({ locked: false, opensAt: null });
    for (const client of [owner, admin]) {
      expect((await lessonOf(client, lessonDrip)).status).toBe(200);
      expect(lessonIn(await outlineOf(client, courseId), lessonDrip)).toMatchObject({ locked: false, opensAt: null });
    }
    // The owner and the admin did not start the course: only the learner did, once.
    expect((await outlineOf(owner, courseId)).learners).toEqual({ started: 1, finished: 0 });

    // Four days later the lesson is open; the module's seven days are not over.
    await run(
      sql`update course_enrollments set started_at = started_at - interval '4 days' where user_id = ${learnerId} and course_id = ${courseId}`,
    );
    expect((await lessonOf(learner, lessonDrip)).status).toBe(200);
    expect((await lessonOf(learner, moduleDrip)).status).toBe(403);
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
    expect((await learner.call(lessonsApi.complete, { params: { id: reading } })).status).toBe(200);
    let outline = await outlineOf(learner, courseId);
    expect(outline.progress).toMatchObject({ completed: 1, total: 2, complete: false, certificateCode: null });

    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 50, passed: false, missed: [2] });
    expect((await outlineOf(learner, courseId)).progress).toMatchObject({ completed: 1, total: 2, complete: false });
    const refused = await certificateOf(learner, courseId);
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe(QUESTION_MESSAGES.notComplete);

    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    outline = await outlineOf(learner, courseId);
    expect(outline.progress).toMatchObject({ completed: 2, total: 2, complete: true });
    expect(outline.progress.certificateCode).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(lessonIn(outline, quiz)?.completed).toBe(true);
    expect((await outlineOf(owner, courseId)).learners).toEqual({ started: 1, finished: 1 });
  });

  it("gives the PDF with the name, the course, the owner and the verification URL", async () => {
    const res = await certificateOf(learner, courseId);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const code = res.headers["x-certificate-code"];
    expect(code).toBe((await outlineOf(learner, courseId)).progress.certificateCode);
    const { text } = await extractText(new Uint8Array(res.response.rawPayload), { mergePages: true });
    expect(text).toContain(learnerName);
    expect(text).toContain("Rust for <Everyone>");
    expect(text).toContain("Olga Owner");
    expect(text).toContain(`${ORIGIN}/certificates/${code}`);
    // Not complete: the owner, another reader.
    expect((await certificateOf(other, courseId)).error.message).toBe(QUESTION_MESSAGES.notComplete);
    expect((await certificateOf(owner, courseId)).status).toBe(403);
    expect((await callApp(t.app, certificatesApi.certificate, { params: { id: courseId } })).status).toBe(401);
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
    const { id } = await author.client.ok(coursesApi.create, { body: { title: "Ελληνικά για όλους 山田 🎓" } });
    const published = await author.client.call(coursesApi.update, { params: { id }, body: { status: "published", isPublic: true } });
    expect(published.status).toBe(200);
    const m = (await author.client.ok(coursesApi.createModule, { params: { id }, body: { title: "Μέρος" } })).id;
    const lesson = (
      await author.client.ok(lessonsApi.create, { params: { id: m }, body: { title: "Α", type: "reading", content: "Text" } })
    ).id;
    for (const [script, name] of Object.entries(names)) {
      const learnerOf = await registerAndSignIn(t.app, { name });
      expect((await learnerOf.client.call(lessonsApi.complete, { params: { id: lesson } })).status).toBe(200);
      const res = await certificateOf(learnerOf.client, id);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(res.response.rawPayload);
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
    expect((await owner.ok(coursesApi.get, { params: { id } })).certificateStyle).toBe("classic");
    const lesson = await addLesson(await addModule(id));
    const styled = await registerAndSignIn(t.app, { name: "Stella Style" });
    expect((await styled.client.call(lessonsApi.complete, { params: { id: lesson } })).status).toBe(200);
    const printed = async () => {
      const res = await certificateOf(styled.client, id);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(res.response.rawPayload);
      const { text } = await extractText(bytes.slice(), { mergePages: true });
      return { fonts: (await fontsOf(bytes)).map((font) => font.slice(7)), lines: text.split("\n") };
    };
    // Classic: serif letters; the product's name first.
    const classic = await printed();
    expect(classic.lines[0]).toBe("Lumora");
    expect(classic.lines).toContain("Stella Style");
    expect(classic.fonts).toContain("DejaVuSerif-Bold");
    expect(classic.fonts.some((font) => font.startsWith("DejaVuSans"))).toBe(false);

    const modern = await owner.call(coursesApi.update, { params: { id }, body: { certificateStyle: "modern" } });
    expect(modern.status).toBe(200);
    expect(modern.data.certificateStyle).toBe("modern");
    expect((await printed()).fonts.sort()).toEqual(["DejaVuSans", "DejaVuSans-Bold"]);
    // The admin may choose too; Minimal sets the name in DejaVu's extra light.
    expect((await admin.call(coursesApi.update, { params: { id }, body: { certificateStyle: "minimal" } })).status).toBe(200);
    expect((await printed()).fonts).toContain("DejaVuSans-ExtraLight");

    // Refused: an unknown style, another user, signed out; the style stays.
    const bad = await owner.call(coursesApi.update, { params: { id }, body: {} }, { rawBody: { certificateStyle: "fancy" } });
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.certificateStyle).toBe("Choose Classic, Modern or Minimal");
    const toClassic = { params: { id }, body: { certificateStyle: "classic" as const } };
    expect((await other.call(coursesApi.update, toClassic)).status).toBe(403);
    expect((await callApp(t.app, coursesApi.update, toClassic)).status).toBe(401);
    expect((await owner.ok(coursesApi.get, { params: { id } })).certificateStyle).toBe("minimal");
  });

  it("issues one certificate under parallel requests", async () => {
    await run(sql`insert into lesson_completions (user_id, lesson_id, course_id) values (${otherId}, ${reading}, ${courseId})`);
    await seedAttempt(t.database.db, { userId: otherId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    const answers = await Promise.all(Array.from({ length: 6 }, () => certificateOf(other, courseId)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.headers["x-certificate-code"])).size).toBe(1);
    const rows = await rowsOf<{ n: number }>(
      sql`select count(*)::int as n from certificates where course_id = ${courseId} and user_id = ${otherId}`,
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("verifies signed out; revoke by the owner or an admin only, and then says revoked", async () => {
    const code = (await outlineOf(learner, courseId)).progress.certificateCode ?? "none";
    const otherCode = (await outlineOf(other, courseId)).progress.certificateCode ?? "none";
    const visitor = new CookieClient(t.app);
    const verify = (client: CookieClient, certificate: string) => client.call(certificatesApi.verify, { params: { code: certificate } });
    const revoke = (client: CookieClient, certificate: string) => client.call(certificatesApi.revoke, { params: { code: certificate } });
    const certificates = (client: CookieClient) => client.call(certificatesApi.courseCertificates, { params: { id: courseId } });
    const verified = await verify(visitor, code);
    expect(verified.status).toBe(200);
    expect(verified.headers["x-robots-tag"]).toBe("noindex");
    expect(verified.data).toMatchObject({
      code,
      learnerName,
      courseTitle: "Rust for <Everyone>",
      ownerName: "Olga Owner",
      revoked: false,
      revokedAt: null,
    });
    expect((await verify(visitor, "nosuchcertificate")).status).toBe(404);
    expect((await verify(visitor, "bad!code")).status).toBe(400);

    const list = await certificates(owner);
    expect(list.status).toBe(200);
    expect(list.data.map((c) => c.code).sort()).toEqual([code, otherCode].sort());
    expect((await certificates(admin)).status).toBe(200);
    expect((await certificates(learner)).status).toBe(404);
    expect((await certificates(visitor)).status).toBe(401);

    expect((await revoke(learner, code)).status).toBe(404);
    expect((await revoke(visitor, code)).status).toBe(401);
    expect((await verify(visitor, code)).data.revoked).toBe(false);
    const revoked = await revoke(owner, code);
    expect(revoked.status).toBe(200);
    expect(revoked.data.revoked).toBe(true);
    expect((await verify(visitor, code)).data).toMatchObject({ revoked: true, revokedAt: expect.any(String) });
    expect((await certificateOf(learner, courseId)).error.message).toBe(QUESTION_MESSAGES.certificateRevoked);

    expect((await revoke(admin, otherCode)).data.revoked).toBe(true);
    expect((await verify(visitor, otherCode)).data.revoked).toBe(true);
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
    await lessonOf(learner, reading);
    await lessonOf(other, reading);
    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 50, passed: false, missed: [2] });
    await seedAttempt(t.database.db, { userId: learnerId, lessonId: quiz, courseId, versionId, score: 100, passed: true, missed: [] });
    await seedAttempt(t.database.db, { userId: otherId, lessonId: quiz, courseId, versionId, score: 0, passed: false, missed: [1, 2] });
    // An open attempt is not counted.
    await run(
      sql`insert into quiz_attempts (lesson_id, course_id, user_id, version_id) values (${quiz}, ${courseId}, ${otherId}, ${versionId})`,
    );
    await learner.call(lessonsApi.complete, { params: { id: reading } });

    const analytics = (client: CookieClient, id = courseId) => client.call(certificatesApi.analytics, { params: { id } });
    const exported = (client: CookieClient) => client.call(certificatesApi.analyticsExport, { params: { id: courseId } });
    const res = await analytics(owner);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
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
    expect((await analytics(admin)).status).toBe(200);
    expect((await analytics(learner)).status).toBe(404);
    expect((await exported(learner)).status).toBe(404);
    expect((await analytics(new CookieClient(t.app))).status).toBe(401);
    expect((await analytics(owner, 99999999)).status).toBe(404);

    const csv = await exported(owner);
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csv.response.body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      "Course,Learners started,Learners completed,Quiz,Attempts,Average score (%),Pass rate (%),Most missed question,Times missed",
    );
    // A formula is written as text: a leading quote, and quoted where it holds a comma or a quote.
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"",""x"")",2,1,'+Quiz one,3,50,33.3,Second question,2`);
    expect(lines[2]).toBe(`"'=HYPERLINK(""http://evil"",""x"")",2,1,Quiz two,0,,,,`);
  });
});
