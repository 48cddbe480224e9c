// Quizzes, the learner's side (issue 32, decision 040): attempts on the published version, answers saved one by one,
// submit graded on the server once, the key never shown before submit, and AI grading of short answers through the
// provider stand-in, bounded per attempt.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quizAttempts } from "../../src/server/db/schema/index.js";
import { MAX_AI_GRADINGS_PER_ATTEMPT } from "../../src/server/modules/quizzes/grading.js";
import { QUESTION_MESSAGES } from "../../src/shared/contracts/assessment.js";
import { COURSE_FORBIDDEN } from "../../src/shared/contracts/courses.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, del, publish, put, QUESTIONS, quizCourse, RIGHT, SECRETS } from "../helpers/quiz-kit.js";

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

type Result = {
  questionId: number;
  correct: boolean;
  gradedBy: string;
  reasoning: string | null;
  key: unknown;
  explanation: string | null;
};

/** A published quiz of `QUESTIONS` and the question ids. */
async function publishedQuiz(settings: object = { passMark: 75, attempts: 3 }) {
  const course = await quizCourse(owner);
  const ids = await addQuestions(owner, course.quizId);
  await publish(owner, course.quizId, settings);
  return { ...course, ids };
}

async function answerAll(client: CookieClient, attemptId: number, ids: number[], values: (number[] | string)[]) {
  for (const [i, id] of ids.entries()) {
    const saved = await put(client, `/api/attempts/${attemptId}/answers/${id}`, { value: values[i] });
    expect(saved.statusCode, saved.body).toBe(200);
  }
}

describe("starting", () => {
  it("refuses before the first publish (409) and on a reading lesson (400); a private course's reader is refused", async () => {
    const { quizId, readingId } = await quizCourse(owner);
    await addQuestions(owner, quizId, [QUESTIONS[0]]);
    const early = await learner.post(`/api/lessons/${quizId}/attempts`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(QUESTION_MESSAGES.notPublished);
    expect((await learner.get(`/api/lessons/${quizId}/attempts`)).statusCode).toBe(409);
    const reading = await learner.post(`/api/lessons/${readingId}/attempts`);
    expect(reading.statusCode).toBe(400);
    expect(reading.json().message).toBe(QUESTION_MESSAGES.notAQuiz);

    const hidden = await quizCourse(owner, { open: false });
    await addQuestions(owner, hidden.quizId, [QUESTIONS[0]]);
    await publish(owner, hidden.quizId);
    const refused = await learner.post(`/api/lessons/${hidden.quizId}/attempts`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(COURSE_FORBIDDEN);
    expect((await new CookieClient(t.app).post(`/api/lessons/${hidden.quizId}/attempts`)).statusCode).toBe(401);
    expect((await owner.post(`/api/lessons/${hidden.quizId}/attempts`)).statusCode).toBe(200);
  });

  it("answers the open attempt again, and two starts at once make one attempt", async () => {
    const { quizId } = await publishedQuiz();
    const [a, b] = await Promise.all([learner.post(`/api/lessons/${quizId}/attempts`), learner.post(`/api/lessons/${quizId}/attempts`)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().id).toBe(b.json().id);
    expect((await learner.post(`/api/lessons/${quizId}/attempts`)).json().id).toBe(a.json().id);
    const rows = await t.database.db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.lessonId, quizId), eq(quizAttempts.userId, learnerId)));
    expect(rows).toHaveLength(1);
    expect(a.json()).toMatchObject({
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
    const keep = async (response: Promise<{ body: string }>) => bodies.push((await response).body);
    const started = await learner.post(`/api/lessons/${quizId}/attempts`);
    bodies.push(started.body);
    const attemptId = started.json().id as number;
    expect(started.json().questions.map((q: { kind: string }) => q.kind)).toEqual(["single", "multiple", "truefalse", "short"]);
    await keep(learner.get(`/api/lessons/${quizId}/attempts`));
    await keep(learner.get(`/api/attempts/${attemptId}`));
    for (const [i, id] of ids.entries()) await keep(put(learner, `/api/attempts/${attemptId}/answers/${id}`, { value: RIGHT[i] }));
    await keep(put(learner, `/api/attempts/${attemptId}/answers/${single}`, { value: "text for options" }));
    await keep(learner.get(`/api/lessons/${quizId}/quiz`));
    await keep(learner.post(`/api/lessons/${quizId}/questions`, QUESTIONS[0]));
    await keep(learner.patch(`/api/questions/${single}`, { prompt: "x" }));
    await keep(learner.post(`/api/questions/${single}/move`, { direction: "down" }));
    await keep(del(learner, `/api/questions/${single}`));
    await keep(learner.post(`/api/lessons/${quizId}/publish-quiz`, { passMark: 0, attempts: null }));
    await keep(learner.post(`/api/lessons/${quizId}/questions/generate`, {}));
    await keep(learner.get(`/api/attempts/${attemptId}`));
    // A failed attempt of an after-pass quiz: right or wrong per question, still no key.
    await put(learner, `/api/attempts/${attemptId}/answers/${single}`, { value: [0] });
    const failed = await learner.post(`/api/attempts/${attemptId}/submit`);
    expect(failed.json()).toMatchObject({ status: "submitted", passed: false, score: 75 });
    expect(failed.json().results.map((r: Result) => [r.correct, r.key, r.explanation])).toEqual([
      [false, null, null],
      [true, null, null],
      [true, null, null],
      [true, null, null],
    ]);
    bodies.push(failed.body);
    await keep(learner.get(`/api/lessons/${quizId}/attempts`));
    const leaks = bodies.flatMap((body, n) => SECRETS.filter((secret) => body.includes(secret)).map((secret) => `${n}: ${secret}`));
    expect(leaks).toEqual([]);
    expect(bodies.length).toBeGreaterThan(15);

    // Once passed, every attempt of this quiz shows its key and explanation.
    const next = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, next.id, ids, RIGHT);
    const passed = (await learner.post(`/api/attempts/${next.id}/submit`)).json();
    expect(passed).toMatchObject({ passed: true, score: 100 });
    expect(passed.results[3]).toMatchObject({
      key: { correct: [], accepted: ["Lima-accepted-keyword"] },
      explanation: "Explained-zebra-short",
    });
    const earlier = (await learner.get(`/api/attempts/${attemptId}`)).json();
    expect(earlier.results[0]).toMatchObject({
      correct: false,
      key: { correct: [1], accepted: [] },
      explanation: "Explained-zebra-single",
    });
  });
});

describe("saving answers", () => {
  it("upserts one row per question, answers them on resume, and checks each value against its question", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    const url = (i: number) => `/api/attempts/${attempt.id}/answers/${ids[i]}`;
    const saved = await put(learner, url(0), { value: [0] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ questionId: ids[0], savedAt: expect.any(String) });
    await put(learner, url(0), { value: [2] });
    await put(learner, url(3), { value: "Lim" });
    await put(learner, url(3), { value: "Lima" });
    const resumed = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    expect(resumed.id).toBe(attempt.id);
    expect(resumed.answers).toEqual([
      { questionId: ids[0], value: [2] },
      { questionId: ids[3], value: "Lima" },
    ]);
    const refusals: [number, unknown, number, string][] = [
      [0, "Mars", 400, QUESTION_MESSAGES.answerOptions],
      [0, [0, 1], 400, QUESTION_MESSAGES.answerOne],
      [0, [3], 400, QUESTION_MESSAGES.outOfRange],
      [1, [0, 0], 400, QUESTION_MESSAGES.answerOptions],
      [2, [0, 1], 400, QUESTION_MESSAGES.answerOne],
      [3, [0], 400, QUESTION_MESSAGES.answerText],
    ];
    for (const [i, value, status, message] of refusals) {
      const res = await put(learner, url(i), { value });
      expect({ value, status: res.statusCode, message: res.json().message }).toEqual({ value, status, message });
    }
    expect((await put(learner, url(0), {})).statusCode).toBe(400);
    expect((await put(learner, url(0), { value: "x".repeat(2001) })).statusCode).toBe(400);
    const unknown = await put(learner, `/api/attempts/${attempt.id}/answers/999999`, { value: [0] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(QUESTION_MESSAGES.questionNotFound);
    expect((await learner.get(`/api/attempts/${attempt.id}`)).json().answers).toHaveLength(2);
    // A text answer that reads as JSON stays text.
    for (const text of ["42", "true", "[1]", "null", ' "quoted" ']) {
      await put(learner, url(3), { value: text });
      expect((await learner.get(`/api/attempts/${attempt.id}`)).json().answers[1]).toEqual({ questionId: ids[3], value: text });
    }
  });

  it("another user's attempt is a 404 on every attempt route, and nothing of it changes", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await put(learner, `/api/attempts/${attempt.id}/answers/${ids[0]}`, { value: [1] });
    for (const res of [
      await other.get(`/api/attempts/${attempt.id}`),
      await put(other, `/api/attempts/${attempt.id}/answers/${ids[0]}`, { value: [0] }),
      await other.post(`/api/attempts/${attempt.id}/submit`),
      await owner.get(`/api/attempts/${attempt.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(QUESTION_MESSAGES.attemptNotFound);
    }
    expect((await other.get(`/api/lessons/${quizId}/attempts`)).json()).toEqual([]);
    expect((await new CookieClient(t.app).get(`/api/attempts/${attempt.id}`)).statusCode).toBe(401);
    expect((await learner.get(`/api/attempts/${attempt.id}`)).json()).toMatchObject({
      status: "open",
      answers: [{ questionId: ids[0], value: [1] }],
    });
  });
});

describe("submitting", () => {
  it("grades every kind by its key, scores in percent against the pass mark, and shows keys after each attempt", async () => {
    const { quizId, ids } = await publishedQuiz();
    const first = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    // single right, multiple only half (wrong), true/false wrong, short right in another case and with spaces.
    await answerAll(learner, first.id, ids, [[1], [0], [1], " LIMA-accepted-KEYWORD  "]);
    const graded = await learner.post(`/api/attempts/${first.id}/submit`);
    expect(graded.statusCode).toBe(200);
    expect(graded.json()).toMatchObject({ status: "submitted", score: 50, passed: false, submittedAt: expect.any(String) });
    expect(graded.json().results.map((r: Result) => [r.correct, r.gradedBy, r.reasoning])).toEqual([
      [true, "key", null],
      [false, "key", null],
      [false, "key", null],
      [true, "key", null],
    ]);
    expect(graded.json().results[1]).toMatchObject({ key: { correct: [0, 2], accepted: [] }, explanation: "Explained-zebra-multiple" });
    // Saving into a submitted attempt is refused; a new attempt starts fresh.
    const late = await put(learner, `/api/attempts/${first.id}/answers/${ids[0]}`, { value: [0] });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(QUESTION_MESSAGES.answerNotOpen);
    const second = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    expect(second).toMatchObject({ status: "open", answers: [], attemptsUsed: 2 });
    await answerAll(learner, second.id, ids.slice(0, 3), RIGHT.slice(0, 3));
    // Three of four right is exactly the pass mark (75): passed. The unanswered question is wrong.
    const passed = (await learner.post(`/api/attempts/${second.id}/submit`)).json();
    expect(passed).toMatchObject({ score: 75, passed: true });
    expect(passed.results[3]).toMatchObject({ correct: false, gradedBy: "key" });
    const list = (await learner.get(`/api/lessons/${quizId}/attempts`)).json();
    expect(list.map((a: { id: number; score: number }) => [a.id, a.score])).toEqual([
      [second.id, 75],
      [first.id, 50],
    ]);
  });

  it("passing the course's last quiz completes it: the certificate is issued at the submit, not at a later read", async () => {
    const { courseId, readingId, quizId, ids } = await publishedQuiz();
    expect((await learner.post(`/api/lessons/${readingId}/complete`)).statusCode).toBe(200);
    const listed = async () => (await owner.get(`/api/courses/${courseId}/certificates`)).json() as unknown[];
    const failing = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, failing.id, ids, [[0], [0], [1], "no"]);
    expect((await learner.post(`/api/attempts/${failing.id}/submit`)).json()).toMatchObject({ passed: false });
    expect(await listed()).toEqual([]);
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, attempt.id, ids, RIGHT);
    expect((await learner.post(`/api/attempts/${attempt.id}/submit`)).json()).toMatchObject({ passed: true });
    // Read by the owner's list, which issues nothing itself.
    expect(await listed()).toHaveLength(1);
  });

  it("allows the attempts the owner set, then refuses with 409", async () => {
    const { quizId, ids } = await publishedQuiz({ passMark: 50, attempts: 2 });
    for (let i = 0; i < 2; i++) {
      const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
      await answerAll(learner, attempt.id, ids.slice(0, 1), [[0]]);
      expect((await learner.post(`/api/attempts/${attempt.id}/submit`)).json().passed).toBe(false);
    }
    const refused = await learner.post(`/api/lessons/${quizId}/attempts`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(QUESTION_MESSAGES.noAttemptsLeft);
    expect((await learner.get(`/api/lessons/${quizId}/attempts`)).json()).toHaveLength(2);
    // Another learner has their own allowance.
    expect((await other.post(`/api/lessons/${quizId}/attempts`)).statusCode).toBe(200);
  });

  it("a double submit in parallel grades once: both answers show the same result", async () => {
    const { quizId, ids } = await publishedQuiz();
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, attempt.id, ids, RIGHT);
    const [a, b] = await Promise.all([
      learner.post(`/api/attempts/${attempt.id}/submit`),
      learner.post(`/api/attempts/${attempt.id}/submit`),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toMatchObject({ score: 100, passed: true, attemptsUsed: 1 });
    const again = await learner.post(`/api/attempts/${attempt.id}/submit`);
    expect(again.json()).toEqual(a.json());
    const rows = await t.database.db.select().from(quizAttempts).where(eq(quizAttempts.lessonId, quizId));
    expect(rows.map((r) => [r.status, r.score, r.submittedAt?.toISOString()])).toEqual([["submitted", 100, a.json().submittedAt]]);
  });

  it("an attempt keeps the version it was started on after the owner republishes", async () => {
    const { quizId, ids } = await publishedQuiz();
    const old = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    // The owner changes the single question's key and its prompt, removes the short question, and republishes.
    await owner.patch(`/api/questions/${ids[0]}`, { prompt: "Pick the rock", correct: [0] });
    await del(owner, `/api/questions/${ids[3]}`);
    await publish(owner, quizId, { passMark: 50, attempts: 3 });
    await answerAll(learner, old.id, ids, RIGHT);
    const graded = (await learner.post(`/api/attempts/${old.id}/submit`)).json();
    expect(graded).toMatchObject({ version: 1, score: 100, passed: true, passMark: 75 });
    expect(graded.questions.map((q: { prompt: string }) => q.prompt)).toEqual(QUESTIONS.map((q) => q.prompt));
    const fresh = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    expect(fresh).toMatchObject({ version: 2, passMark: 50 });
    expect(fresh.questions.map((q: { prompt: string }) => q.prompt)).toEqual(["Pick the rock", QUESTIONS[1].prompt, QUESTIONS[2].prompt]);
    // Grading the new attempt uses the new key.
    await put(learner, `/api/attempts/${fresh.id}/answers/${ids[0]}`, { value: [0] });
    expect((await learner.post(`/api/attempts/${fresh.id}/submit`)).json().results[0].correct).toBe(true);
  });
});

describe("short answers (decision 059)", () => {
  it("ignore case, spacing and punctuation; contains accepts the words inside an answer; the owner sets it, learners never see it", async () => {
    const { quizId } = await quizCourse(owner);
    const exact = { kind: "short", prompt: "How often do the tides come in?", accepted: ["twice"] };
    const [exactId, containsId] = await addQuestions(owner, quizId, [exact, { ...exact, match: "contains" }]);
    const quiz = (await owner.get(`/api/lessons/${quizId}/quiz`)).json();
    expect(quiz.questions.map((q: { match: string }) => q.match)).toEqual(["exact", "contains"]);
    const bad = await owner.patch(`/api/questions/${exactId}`, { match: "sounds-like" });
    expect(bad.statusCode).toBe(400);
    expect((await learner.patch(`/api/questions/${exactId}`, { match: "contains" })).statusCode).toBe(403);
    await publish(owner, quizId, { passMark: 50, attempts: null });

    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    expect(JSON.stringify(attempt)).not.toContain("contains");
    await answerAll(learner, attempt.id, [exactId as number, containsId as number], ["  Twice! ", "Twice, a day."]);
    const graded = (await learner.post(`/api/attempts/${attempt.id}/submit`)).json();
    expect(graded.results.map((r: Result) => [r.correct, r.gradedBy])).toEqual([
      [true, "key"],
      [true, "key"],
    ]);

    const again = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, again.id, [exactId as number, containsId as number], ["twice a day", "twiced"]);
    const wrong = (await learner.post(`/api/attempts/${again.id}/submit`)).json();
    expect(wrong.results.map((r: Result) => r.correct)).toEqual([false, false]);
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
    const quiz = (await owner.get(`/api/lessons/${quizId}/quiz`)).json();
    const qids = quiz.questions.map((q: { id: number }) => q.id);
    expect(qids[0]).toBe(id);
    await publish(owner, quizId, { passMark: 60, attempts: null });
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, attempt.id, qids, [" 42 ", "forty-two", "a guess #wrong"]);
    const before = fake.requests.length;
    const tokens = async (client: CookieClient) => (await client.get("/api/usage")).json().tokens.used as number;
    const [learnerBefore, ownerBefore] = [await tokens(learner), await tokens(owner)];
    const submitted = await learner.post(`/api/attempts/${attempt.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    const graded = submitted.json();
    expect(fake.requests.length - before).toBe(2);
    expect(graded.results.map((r: Result) => [r.correct, r.gradedBy, r.reasoning])).toEqual([
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
    const keyOnly = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(learner, keyOnly.id, qids, ["42", "42", ""]);
    const quiet = fake.requests.length;
    expect((await learner.post(`/api/attempts/${keyOnly.id}/submit`)).json().score).toBe(67);
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
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await answerAll(
      learner,
      attempt.id,
      qids,
      qids.map(() => "forty-two"),
    );
    const before = fake.requests.length;
    const graded = (await learner.post(`/api/attempts/${attempt.id}/submit`)).json();
    expect(fake.requests.length - before).toBe(MAX_AI_GRADINGS_PER_ATTEMPT);
    expect(graded.results.map((r: Result) => r.gradedBy)).toEqual([
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
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await put(learner, `/api/attempts/${attempt.id}/answers/${id}`, { value: "forty-two" });
    const before = fake.requests.length;
    const [a, b] = await Promise.all([
      learner.post(`/api/attempts/${attempt.id}/submit`),
      learner.post(`/api/attempts/${attempt.id}/submit`),
    ]);
    expect(fake.requests.length - before).toBe(1);
    expect(a.json()).toEqual(b.json());
    expect(a.json().results[0]).toMatchObject({ correct: true, gradedBy: "ai" });
  });

  it("a provider failure leaves the attempt open with a message to submit again; the next submit grades", async () => {
    const { quizId } = await quizCourse(owner);
    const [id] = await addQuestions(owner, quizId, [RUBRIC]);
    await publish(owner, quizId, { passMark: 50, attempts: 1 });
    const attempt = (await learner.post(`/api/lessons/${quizId}/attempts`)).json();
    await put(learner, `/api/attempts/${attempt.id}/answers/${id}`, { value: "forty-two #error=500" });
    const failed = await learner.post(`/api/attempts/${attempt.id}/submit`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toContain(QUESTION_MESSAGES.gradingFailed);
    expect((await learner.get(`/api/attempts/${attempt.id}`)).json()).toMatchObject({ status: "open", score: null, results: null });
    await put(learner, `/api/attempts/${attempt.id}/answers/${id}`, { value: "forty-two" });
    const graded = (await learner.post(`/api/attempts/${attempt.id}/submit`)).json();
    expect(graded).toMatchObject({ status: "submitted", score: 100, passed: true, attemptsUsed: 1 });
  });
});
