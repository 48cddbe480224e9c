// Quizzes, the learner's side (issue 32, decision 040): attempts on the published version, answers saved one by one,
// submit graded on the server once, the key never shown before submit, and AI grading of short answers through the
// provider stand-in, bounded per attempt.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quizAttempts } from "../../src/server/db/schema/index.js";
import { MAX_AI_GRADINGS_PER_ATTEMPT } from "../../src/server/modules/quizzes/grading.js";
import { certificatesApi, QUESTION_MESSAGES, quizzesApi } from "../../src/shared/contracts/assessment.js";
import { COURSE_FORBIDDEN, lessonsApi } from "../../src/shared/contracts/courses.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, publish, QUESTIONS, quizCourse, RIGHT, SECRETS } from "../helpers/quiz-kit.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let learner: CookieClient;
let other: CookieClient;
let learnerId: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp(
    process.env.QUIZ_LOG ? { env: { LOG_LEVEL: "error" }, logStream: { write: (l) => void process.stderr.write(l) } } : {},
  );
  admin = (await registerAndSignIn(t.app)).client;
  owner = (await registerAndSignIn(t.app)).client;
  const registered = await registerAndSignIn(t.app);
  learner = registered.client;
  learnerId = registered.user.id;
  other = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A published quiz of `QUESTIONS` and the question ids. */
async function publishedQuiz(settings: object = { passMark: 75, attempts: 3 }) {
  const course = await quizCourse(owner);
  const ids = await addQuestions(owner, course.quizId);
  await publish(owner, course.quizId, settings);
  return { ...course, ids };
}

async function answerAll(client: CookieClient, attemptId: number, ids: readonly (number | undefined)[], values: (number[] | string)[]) {
  for (const [i, value] of values.entries()) {
    const saved = await client.call(quizzesApi.saveAnswer, { params: { id: attemptId, questionId: ids[i] }, body: { value } });
    expect(saved.status, saved.response.body).toBe(200);
  }
}

describe("starting", () => {
  it("refuses before the first publish (409) and on a reading lesson (400); a private course's reader is refused", async () => {
    const { quizId, readingId } = await quizCourse(owner);
    await addQuestions(owner, quizId, [QUESTIONS[0]]);
    const early = await learner.call(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(early.status).toBe(409);
    expect(early.error.message).toBe(QUESTION_MESSAGES.notPublished);
    expect((await learner.call(quizzesApi.attempts, { params: { id: quizId } })).status).toBe(409);
    const reading = await learner.call(quizzesApi.startAttempt, { params: { id: readingId } });
    expect(reading.status).toBe(400);
    expect(reading.error.message).toBe(QUESTION_MESSAGES.notAQuiz);

    const hidden = await quizCourse(owner, { open: false });
    await addQuestions(owner, hidden.quizId, [QUESTIONS[0]]);
    await publish(owner, hidden.quizId);
    const refused = await learner.call(quizzesApi.startAttempt, { params: { id: hidden.quizId } });
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe(COURSE_FORBIDDEN);
    expect((await callApp(t.app, quizzesApi.startAttempt, { params: { id: hidden.quizId } })).status).toBe(401);
    expect((await owner.call(quizzesApi.startAttempt, { params: { id: hidden.quizId } })).status).toBe(200);
  });

  it("answers the open attempt again, and two starts at once make one attempt", async () => {
    const { quizId } = await publishedQuiz();
    const [a, b] = await Promise.all([
      learner.call(quizzesApi.startAttempt, { params: { id: quizId } }),
      learner.call(quizzesApi.startAttempt, { params: { id: quizId } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data.id).toBe(b.data.id);
    expect((await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } })).id).toBe(a.data.id);
    const rows = await t.database.db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.lessonId, quizId), eq(quizAttempts.userId, learnerId)));
    expect(rows).toHaveLength(1);
    expect(a.data).toMatchObject({
      status: "open",
      version: 1,
      passMark: 75,
      attemptsUsed: 1,
      attemptsAllowed: 3,
      score: null,
      results: null,
    });
  });
});

describe("the answer key before submit", () => {
  it("is in no answer a learner can get from any quiz route, and not after a failed attempt of an after-pass quiz", async () => {
    const { quizId, ids } = await publishedQuiz({ passMark: 100, attempts: null, showAnswers: "after_pass" });
    const [single] = ids;
    const bodies: string[] = [];
    const keep = async (called: Promise<{ response: { body: string } }>) => bodies.push((await called).response.body);
    const started = await learner.call(quizzesApi.startAttempt, { params: { id: quizId } });
    bodies.push(started.response.body);
    const attemptId = started.data.id;
    expect(started.data.questions.map((q) => q.kind)).toEqual(["single", "multiple", "truefalse", "short"]);
    await keep(learner.call(quizzesApi.attempts, { params: { id: quizId } }));
    await keep(learner.call(quizzesApi.attempt, { params: { id: attemptId } }));
    for (const [i, value] of RIGHT.entries())
      await keep(learner.call(quizzesApi.saveAnswer, { params: { id: attemptId, questionId: ids[i] }, body: { value } }));
    await keep(learner.call(quizzesApi.saveAnswer, { params: { id: attemptId, questionId: single }, body: { value: "text for options" } }));
    await keep(learner.call(quizzesApi.quiz, { params: { id: quizId } }));
    await keep(
      learner.call(quizzesApi.addQuestion, {
        params: { id: quizId },
        body: { ...QUESTIONS[0], options: [...QUESTIONS[0].options], correct: [...QUESTIONS[0].correct] },
      }),
    );
    await keep(learner.call(quizzesApi.updateQuestion, { params: { id: single }, body: { prompt: "x" } }));
    await keep(learner.call(quizzesApi.moveQuestion, { params: { id: single }, body: { direction: "down" } }));
    await keep(learner.call(quizzesApi.removeQuestion, { params: { id: single } }));
    await keep(learner.call(quizzesApi.publish, { params: { id: quizId }, body: { passMark: 0, attempts: null } }));
    await keep(learner.call(quizzesApi.generateQuestions, { params: { id: quizId }, body: {} }));
    await keep(learner.call(quizzesApi.attempt, { params: { id: attemptId } }));
    // A failed attempt of an after-pass quiz: right or wrong per question, still no key.
    await learner.ok(quizzesApi.saveAnswer, { params: { id: attemptId, questionId: single }, body: { value: [0] } });
    const failed = await learner.call(quizzesApi.submit, { params: { id: attemptId } });
    expect(failed.data).toMatchObject({ status: "submitted", passed: false, score: 75 });
    expect(failed.data.results?.map((r) => [r.correct, r.key, r.explanation])).toEqual([
      [false, null, null],
      [true, null, null],
      [true, null, null],
      [true, null, null],
    ]);
    bodies.push(failed.response.body);
    await keep(learner.call(quizzesApi.attempts, { params: { id: quizId } }));
    const leaks = bodies.flatMap((body, n) => SECRETS.filter((secret) => body.includes(secret)).map((secret) => `${n}: ${secret}`));
    expect(leaks).toEqual([]);
    expect(bodies.length).toBeGreaterThan(15);

    // Once passed, every attempt of this quiz shows its key and explanation.
    const next = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, next.id, ids, RIGHT);
    const passed = await learner.ok(quizzesApi.submit, { params: { id: next.id } });
    expect(passed).toMatchObject({ passed: true, score: 100 });
    expect(passed.results?.[3]).toMatchObject({
      key: { correct: [], accepted: ["Lima-accepted-keyword"] },
      explanation: "Explained-zebra-short",
    });
    const earlier = await learner.ok(quizzesApi.attempt, { params: { id: attemptId } });
    expect(earlier.results?.[0]).toMatchObject({
      correct: false,
      key: { correct: [1], accepted: [] },
      explanation: "Explained-zebra-single",
    });
  });
});

describe("saving answers", () => {
  it("upserts one row per question, answers them on resume, and checks each value against its question", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    const answer = (i: number, value: number[] | string) =>
      learner.call(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: ids[i] }, body: { value } });
    const saved = await answer(0, [0]);
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual({ questionId: ids[0], savedAt: expect.any(String) });
    await answer(0, [2]);
    await answer(3, "Lim");
    await answer(3, "Lima");
    const resumed = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(resumed.id).toBe(attempt.id);
    expect(resumed.answers).toEqual([
      { questionId: ids[0], value: [2] },
      { questionId: ids[3], value: "Lima" },
    ]);
    const refusals: [number, number[] | string, number, string][] = [
      [0, "Mars", 400, QUESTION_MESSAGES.answerOptions],
      [0, [0, 1], 400, QUESTION_MESSAGES.answerOne],
      [0, [3], 400, QUESTION_MESSAGES.outOfRange],
      [1, [0, 0], 400, QUESTION_MESSAGES.answerOptions],
      [2, [0, 1], 400, QUESTION_MESSAGES.answerOne],
      [3, [0], 400, QUESTION_MESSAGES.answerText],
    ];
    for (const [i, value, status, message] of refusals) {
      const res = await answer(i, value);
      expect({ value, status: res.status, message: res.error.message }).toEqual({ value, status, message });
    }
    expect(
      (await learner.call(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: ids[0] }, body: { value: [] } }, { rawBody: {} }))
        .status,
    ).toBe(400);
    expect((await answer(0, "x".repeat(2001))).status).toBe(400);
    const unknown = await learner.call(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: 999999 }, body: { value: [0] } });
    expect(unknown.status).toBe(404);
    expect(unknown.error.message).toBe(QUESTION_MESSAGES.questionNotFound);
    expect((await learner.ok(quizzesApi.attempt, { params: { id: attempt.id } })).answers).toHaveLength(2);
    // A text answer that reads as JSON stays text.
    for (const text of ["42", "true", "[1]", "null", ' "quoted" ']) {
      await answer(3, text);
      expect((await learner.ok(quizzesApi.attempt, { params: { id: attempt.id } })).answers[1]).toEqual({
        questionId: ids[3],
        value: text,
      });
    }
  });

  it("another user's attempt is a 404 on every attempt route, and nothing of it changes", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await learner.ok(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: ids[0] }, body: { value: [1] } });
    for (const res of [
      await other.call(quizzesApi.attempt, { params: { id: attempt.id } }),
      await other.call(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: ids[0] }, body: { value: [0] } }),
      await other.call(quizzesApi.submit, { params: { id: attempt.id } }),
      await owner.call(quizzesApi.attempt, { params: { id: attempt.id } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.error.message).toBe(QUESTION_MESSAGES.attemptNotFound);
    }
    expect(await other.ok(quizzesApi.attempts, { params: { id: quizId } })).toEqual([]);
    expect((await callApp(t.app, quizzesApi.attempt, { params: { id: attempt.id } })).status).toBe(401);
    expect(await learner.ok(quizzesApi.attempt, { params: { id: attempt.id } })).toMatchObject({
      status: "open",
      answers: [{ questionId: ids[0], value: [1] }],
    });
  });
});

describe("submitting", () => {
  it("grades every kind by its key, scores in percent against the pass mark, and shows keys after each attempt", async () => {
    const { quizId, ids } = await publishedQuiz();
    const first = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    // single right, multiple only half (wrong), true/false wrong, short right in another case and with spaces.
    await answerAll(learner, first.id, ids, [[1], [0], [1], " LIMA-accepted-KEYWORD  "]);
    const graded = await learner.call(quizzesApi.submit, { params: { id: first.id } });
    expect(graded.status).toBe(200);
    expect(graded.data).toMatchObject({ status: "submitted", score: 50, passed: false, submittedAt: expect.any(String) });
    expect(graded.data.results?.map((r) => [r.correct, r.gradedBy, r.reasoning])).toEqual([
      [true, "key", null],
      [false, "key", null],
      [false, "key", null],
      [true, "key", null],
    ]);
    expect(graded.data.results?.[1]).toMatchObject({ key: { correct: [0, 2], accepted: [] }, explanation: "Explained-zebra-multiple" });
    // Saving into a submitted attempt is refused; a new attempt starts fresh.
    const late = await learner.call(quizzesApi.saveAnswer, { params: { id: first.id, questionId: ids[0] }, body: { value: [0] } });
    expect(late.status).toBe(409);
    expect(late.error.message).toBe(QUESTION_MESSAGES.answerNotOpen);
    const second = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(second).toMatchObject({ status: "open", answers: [], attemptsUsed: 2 });
    await answerAll(learner, second.id, ids.slice(0, 3), RIGHT.slice(0, 3));
    // Three of four right is exactly the pass mark (75): passed. The unanswered question is wrong.
    const passed = await learner.ok(quizzesApi.submit, { params: { id: second.id } });
    expect(passed).toMatchObject({ score: 75, passed: true });
    expect(passed.results?.[3]).toMatchObject({ correct: false, gradedBy: "key" });
    const list = await learner.ok(quizzesApi.attempts, { params: { id: quizId } });
    expect(list.map((a) => [a.id, a.score])).toEqual([
      [second.id, 75],
      [first.id, 50],
    ]);
  });

  it("passing the course's last quiz completes it: the certificate is issued at the submit, not at a later read", async () => {
    const { courseId, readingId, quizId, ids } = await publishedQuiz();
    expect((await learner.call(lessonsApi.complete, { params: { id: readingId } })).status).toBe(200);
    const listed = () => owner.ok(certificatesApi.courseCertificates, { params: { id: courseId } });
    const failing = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, failing.id, ids, [[0], [0], [1], "no"]);
    expect(await learner.ok(quizzesApi.submit, { params: { id: failing.id } })).toMatchObject({ passed: false });
    expect(await listed()).toEqual([]);
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, attempt.id, ids, RIGHT);
    expect(await learner.ok(quizzesApi.submit, { params: { id: attempt.id } })).toMatchObject({ passed: true });
    // Read by the owner's list, which issues nothing itself.
    expect(await listed()).toHaveLength(1);
  });

  it("allows the attempts the owner set, then refuses with 409", async () => {
    const { quizId, ids } = await publishedQuiz({ passMark: 50, attempts: 2 });
    for (let i = 0; i < 2; i++) {
      const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
      await answerAll(learner, attempt.id, ids.slice(0, 1), [[0]]);
      expect((await learner.ok(quizzesApi.submit, { params: { id: attempt.id } })).passed).toBe(false);
    }
    const refused = await learner.call(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(refused.status).toBe(409);
    expect(refused.error.message).toBe(QUESTION_MESSAGES.noAttemptsLeft);
    expect(await learner.ok(quizzesApi.attempts, { params: { id: quizId } })).toHaveLength(2);
    // Another learner has their own allowance.
    expect((await other.call(quizzesApi.startAttempt, { params: { id: quizId } })).status).toBe(200);
  });

  it("a double submit in parallel grades once: both answers show the same result", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, attempt.id, ids, RIGHT);
    const [a, b] = await Promise.all([
      learner.call(quizzesApi.submit, { params: { id: attempt.id } }),
      learner.call(quizzesApi.submit, { params: { id: attempt.id } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.data).toEqual(b.data);
    expect(a.data).toMatchObject({ score: 100, passed: true, attemptsUsed: 1 });
    const again = await learner.call(quizzesApi.submit, { params: { id: attempt.id } });
    expect(again.data).toEqual(a.data);
    const rows = await t.database.db.select().from(quizAttempts).where(eq(quizAttempts.lessonId, quizId));
    expect(rows.map((r) => [r.status, r.score, r.submittedAt?.toISOString()])).toEqual([["submitted", 100, a.data.submittedAt]]);
  });

  it("an attempt keeps the version it was started on after the owner republishes", async () => {
    const { quizId, ids } = await publishedQuiz();
    const old = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    // The owner changes the single question's key and its prompt, removes the short question, and republishes.
    await owner.ok(quizzesApi.updateQuestion, { params: { id: ids[0] }, body: { prompt: "Pick the rock", correct: [0] } });
    await owner.ok(quizzesApi.removeQuestion, { params: { id: ids[3] } });
    await publish(owner, quizId, { passMark: 50, attempts: 3 });
    await answerAll(learner, old.id, ids, RIGHT);
    const graded = await learner.ok(quizzesApi.submit, { params: { id: old.id } });
    expect(graded).toMatchObject({ version: 1, score: 100, passed: true, passMark: 75 });
    expect(graded.questions.map((q) => q.prompt)).toEqual(QUESTIONS.map((q) => q.prompt));
    const fresh = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(fresh).toMatchObject({ version: 2, passMark: 50 });
    expect(fresh.questions.map((q) => q.prompt)).toEqual(["Pick the rock", QUESTIONS[1].prompt, QUESTIONS[2].prompt]);
    // Grading the new attempt uses the new key.
    await learner.ok(quizzesApi.saveAnswer, { params: { id: fresh.id, questionId: ids[0] }, body: { value: [0] } });
    expect((await learner.ok(quizzesApi.submit, { params: { id: fresh.id } })).results?.[0]?.correct).toBe(true);
  });
});

describe("short answers (decision 059)", () => {
  it("ignore case, spacing and punctuation; contains accepts the words inside an answer; the owner sets it, learners never see it", async () => {
    const { quizId } = await quizCourse(owner);
    const exact = { kind: "short", prompt: "How often do the tides come in?", accepted: ["twice"] };
    const [exactId, containsId] = await addQuestions(owner, quizId, [exact, { ...exact, match: "contains" }]);
    const quiz = await owner.ok(quizzesApi.quiz, { params: { id: quizId } });
    expect(quiz.questions.map((q) => q.match)).toEqual(["exact", "contains"]);
    const bad = await owner.call(quizzesApi.updateQuestion, { params: { id: exactId }, body: {} }, { rawBody: { match: "sounds-like" } });
    expect(bad.status).toBe(400);
    expect((await learner.call(quizzesApi.updateQuestion, { params: { id: exactId }, body: { match: "contains" } })).status).toBe(403);
    await publish(owner, quizId, { passMark: 50, attempts: null });

    const started = await learner.call(quizzesApi.startAttempt, { params: { id: quizId } });
    expect(started.response.body).not.toContain("contains");
    const attempt = started.data;
    await answerAll(learner, attempt.id, [exactId, containsId], ["  Twice! ", "Twice, a day."]);
    const graded = await learner.ok(quizzesApi.submit, { params: { id: attempt.id } });
    expect(graded.results?.map((r) => [r.correct, r.gradedBy])).toEqual([
      [true, "key"],
      [true, "key"],
    ]);

    const again = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, again.id, [exactId, containsId], ["twice a day", "twiced"]);
    const wrong = await learner.ok(quizzesApi.submit, { params: { id: again.id } });
    expect(wrong.results?.map((r) => r.correct)).toEqual([false, false]);
  });
});

describe("AI grading of short answers", () => {
  const RUBRIC = {
    kind: "short",
    prompt: "What is six times seven?",
    accepted: ["42"],
    rubric: "The number forty-two, in any words",
    aiGrading: true,
  };

  it("never calls the AI for an accepted answer; grades others against the rubric with the learner's model", async () => {
    await pointPlatformAt(admin, "openai", fake);
    const { quizId } = await quizCourse(owner);
    const [id] = await addQuestions(owner, quizId, [RUBRIC, RUBRIC, RUBRIC]);
    const quiz = await owner.ok(quizzesApi.quiz, { params: { id: quizId } });
    const qids = quiz.questions.map((q) => q.id);
    expect(qids[0]).toBe(id);
    await publish(owner, quizId, { passMark: 60, attempts: null });
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, attempt.id, qids, [" 42 ", "forty-two", "a guess #wrong"]);
    const before = fake.requests.length;
    const tokens = async (client: CookieClient) => (await client.ok(usageApi.mine, {})).tokens.used;
    const [learnerBefore, ownerBefore] = [await tokens(learner), await tokens(owner)];
    const submitted = await learner.call(quizzesApi.submit, { params: { id: attempt.id } });
    expect(submitted.status, submitted.response.body).toBe(200);
    const graded = submitted.data;
    expect(fake.requests.length - before).toBe(2);
    expect(graded.results?.map((r) => [r.correct, r.gradedBy, r.reasoning])).toEqual([
      [true, "key", null],
      [true, "ai", "Fake grader: the answer meets the rubric."],
      [false, "ai", "Fake grader: the answer misses the rubric."],
    ]);
    expect(graded).toMatchObject({ score: 67, passed: true });
    const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(sent).toContain("The number forty-two, in any words");
    expect(sent).toContain("answer_grade");
    // The AI's gradings spend from the learner's allowance, not the owner's.
    expect(await tokens(learner)).toBeGreaterThan(learnerBefore);
    expect(await tokens(owner)).toBe(ownerBefore);

    // An attempt answered only by the key calls no AI at all.
    const keyOnly = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(learner, keyOnly.id, qids, ["42", "42", ""]);
    const quiet = fake.requests.length;
    expect((await learner.ok(quizzesApi.submit, { params: { id: keyOnly.id } })).score).toBe(67);
    expect(fake.requests.length).toBe(quiet);
  });

  it(`grades at most ${MAX_AI_GRADINGS_PER_ATTEMPT} answers of an attempt by the AI; the rest by the key`, async () => {
    const { quizId } = await quizCourse(owner);
    const qids = await addQuestions(
      owner,
      quizId,
      Array.from({ length: MAX_AI_GRADINGS_PER_ATTEMPT + 2 }, () => RUBRIC),
    );
    await publish(owner, quizId, { passMark: 50, attempts: null });
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await answerAll(
      learner,
      attempt.id,
      qids,
      qids.map(() => "forty-two"),
    );
    const before = fake.requests.length;
    const graded = await learner.ok(quizzesApi.submit, { params: { id: attempt.id } });
    expect(fake.requests.length - before).toBe(MAX_AI_GRADINGS_PER_ATTEMPT);
    expect(graded.results?.map((r) => r.gradedBy)).toEqual([
      ...Array.from({ length: MAX_AI_GRADINGS_PER_ATTEMPT }, () => "ai"),
      "key",
      "key",
    ]);
    expect(graded.score).toBe(Math.round((100 * MAX_AI_GRADINGS_PER_ATTEMPT) / qids.length));
  });

  it("a double submit in parallel asks the AI once and both answers show its verdict", async () => {
    const { quizId } = await quizCourse(owner);
    const [id] = await addQuestions(owner, quizId, [RUBRIC]);
    await publish(owner, quizId, { passMark: 50, attempts: null });
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await learner.ok(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: id }, body: { value: "forty-two" } });
    const before = fake.requests.length;
    const [a, b] = await Promise.all([
      learner.call(quizzesApi.submit, { params: { id: attempt.id } }),
      learner.call(quizzesApi.submit, { params: { id: attempt.id } }),
    ]);
    expect(fake.requests.length - before).toBe(1);
    expect(a.data).toEqual(b.data);
    expect(a.data.results?.[0]).toMatchObject({ correct: true, gradedBy: "ai" });
  });

  it("a provider failure leaves the attempt open with a message to submit again; the next submit grades", async () => {
    const { quizId } = await quizCourse(owner);
    const [id] = await addQuestions(owner, quizId, [RUBRIC]);
    await publish(owner, quizId, { passMark: 50, attempts: 1 });
    const attempt = await learner.ok(quizzesApi.startAttempt, { params: { id: quizId } });
    await learner.ok(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: id }, body: { value: "forty-two #error=500" } });
    const failed = await learner.call(quizzesApi.submit, { params: { id: attempt.id } });
    expect(failed.status).toBe(502);
    expect(failed.error.message).toContain(QUESTION_MESSAGES.gradingFailed);
    expect(await learner.ok(quizzesApi.attempt, { params: { id: attempt.id } })).toMatchObject({
      status: "open",
      score: null,
      results: null,
    });
    await learner.ok(quizzesApi.saveAnswer, { params: { id: attempt.id, questionId: id }, body: { value: "forty-two" } });
    const graded = await learner.ok(quizzesApi.submit, { params: { id: attempt.id } });
    expect(graded).toMatchObject({ status: "submitted", score: 100, passed: true, attemptsUsed: 1 });
  });
});
