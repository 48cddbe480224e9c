// Quizzes, the owner's side (issue 32, decision 040): questions added, changed (merged and checked), moved, removed;
// publishing versions; drafting questions with the AI stand-in; and who may do none of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { QUESTION_MESSAGES, quizzesApi, TRUE_FALSE_OPTIONS } from "../../src/shared/contracts/assessment.js";
import { COURSE_EDIT_FORBIDDEN, COURSE_FORBIDDEN, coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import { FAKE_QUESTIONS } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CallInput, CallOptions } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, adminOwnerLearner, publish, QUESTIONS, quizCourse } from "../helpers/quiz-kit.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let learner: CookieClient;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, owner, learner } = await adminOwnerLearner(t.app));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type QuestionBody = CallInput<typeof quizzesApi.addQuestion>["body"];
type QuestionChange = CallInput<typeof quizzesApi.updateQuestion>["body"];
const quizOf = (client: CookieClient, id: number) => client.call(quizzesApi.quiz, { params: { id } });
const addQuestion = (client: CookieClient, id: number, body: QuestionBody, options?: CallOptions) =>
  client.call(quizzesApi.addQuestion, { params: { id }, body }, options);
const change = (client: CookieClient, id: number, body: QuestionChange) => client.call(quizzesApi.updateQuestion, { params: { id }, body });
const move = (client: CookieClient, id: number, direction: "up" | "down") =>
  client.call(quizzesApi.moveQuestion, { params: { id }, body: { direction } });
const remove = (client: CookieClient, id: number) => client.call(quizzesApi.removeQuestion, { params: { id } });
const publishQuiz = (client: CookieClient, id: number, body: CallInput<typeof quizzesApi.publish>["body"]) =>
  client.call(quizzesApi.publish, { params: { id }, body });
const generate = (client: CookieClient, id: number, body: CallInput<typeof quizzesApi.generateQuestions>["body"] = {}) =>
  client.call(quizzesApi.generateQuestions, { params: { id }, body });
/** The first of the kit's questions, as the contract types a question's body. */
const FIRST: QuestionBody = { ...QUESTIONS[0], options: [...QUESTIONS[0].options], correct: [...QUESTIONS[0].correct] };

describe("questions", () => {
  it("adds one of each kind in order, a true/false question with the server's options, and reads them back with keys", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    const quiz = (await quizOf(owner, quizId)).data;
    expect(quiz.questions.map((q) => [q.id, q.order, q.kind])).toEqual([
      [ids[0], 1, "single"],
      [ids[1], 2, "multiple"],
      [ids[2], 3, "truefalse"],
      [ids[3], 4, "short"],
    ]);
    expect(quiz.questions[2]?.options).toEqual([...TRUE_FALSE_OPTIONS]);
    expect(quiz.questions[3]).toMatchObject({ accepted: ["Lima-accepted-keyword"], explanation: "Explained-zebra-short" });
    expect(quiz).toMatchObject({ published: null, changedSincePublish: false });

    // Sent options for a true/false question are replaced by the server's.
    const tf = await addQuestion(owner, quizId, { kind: "truefalse", prompt: "x", options: ["Yes", "No", "Maybe"], correct: [1] });
    expect(tf.status).toBe(201);
    expect(tf.data.options).toEqual(["True", "False"]);
  });

  it("refuses bad bodies with 400 and each field's message", async () => {
    const { quizId } = await quizCourse(owner);
    const cases: [object, Record<string, string>][] = [
      [{ kind: "single", prompt: " ", options: ["a", "b"], correct: [0] }, { prompt: QUESTION_MESSAGES.prompt }],
      [{ kind: "single", prompt: "p", options: ["a"], correct: [0] }, { options: QUESTION_MESSAGES.options }],
      [{ kind: "single", prompt: "p", options: ["a", "b"], correct: [0, 1] }, { correct: QUESTION_MESSAGES.single }],
      [{ kind: "single", prompt: "p", options: ["a", "b"], correct: [4] }, { correct: QUESTION_MESSAGES.outOfRange }],
      [{ kind: "multiple", prompt: "p", options: ["a", "b"], correct: [] }, { correct: QUESTION_MESSAGES.multiple }],
      [{ kind: "truefalse", prompt: "p", correct: [2] }, { correct: QUESTION_MESSAGES.trueFalse }],
      [{ kind: "short", prompt: "p" }, { accepted: QUESTION_MESSAGES.short }],
      [{ kind: "essay", prompt: "p" }, { kind: "Choose a question type" }],
    ];
    for (const [body, errors] of cases) {
      const res = await addQuestion(owner, quizId, FIRST, { rawBody: body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.error.errors).toMatchObject(errors);
      expect(res.error.message).toBe(Object.values(errors)[0]);
    }
    // A rubric with AI grading is enough for a short answer.
    const ai = await addQuestion(owner, quizId, { kind: "short", prompt: "p", rubric: "r", aiGrading: true });
    expect(ai.status).toBe(201);
    expect((await quizOf(owner, quizId)).data.questions).toHaveLength(1);
  });

  it("changes a question merged with what is stored, and checks the merged question", async () => {
    const { quizId } = await quizCourse(owner);
    const [single = 0, , tf = 0] = await addQuestions(owner, quizId);
    const changed = await change(owner, single, { prompt: "Pick the red planet" });
    expect(changed.status).toBe(200);
    expect(changed.data).toMatchObject({ prompt: "Pick the red planet", options: ["Rock", "Mars", "Cloud"], correct: [1] });
    expect((await change(owner, single, { correct: [2] })).data.correct).toEqual([2]);
    // Fewer options than the stored key names: the merged question is refused, and nothing changes.
    const refused = await change(owner, single, { options: ["Only", "Two"] });
    expect(refused.status).toBe(400);
    expect(refused.error).toEqual({ message: QUESTION_MESSAGES.outOfRange, errors: { correct: QUESTION_MESSAGES.outOfRange } });
    expect((await quizOf(owner, quizId)).data.questions[0]?.options).toEqual(["Rock", "Mars", "Cloud"]);
    const both = await change(owner, single, { options: ["Only", "Two"], correct: [0] });
    expect(both.data).toMatchObject({ options: ["Only", "Two"], correct: [0] });
    // Becoming true/false takes the server's options.
    const toTf = await change(owner, single, { kind: "truefalse", correct: [1] });
    expect(toTf.data).toMatchObject({ kind: "truefalse", options: ["True", "False"], correct: [1] });
    expect((await change(owner, tf, { prompt: "" })).error.errors).toEqual({ prompt: QUESTION_MESSAGES.prompt });
    expect((await change(owner, 999999, { prompt: "x" })).status).toBe(404);
  });

  it("moves questions keeping 1..n, and removes one closing the gap", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    const [first = 0, second = 0, , fourth = 0] = ids;
    const moved = await move(owner, fourth, "up");
    expect(moved.status).toBe(200);
    expect(moved.data.map((q) => [q.id, q.order])).toEqual([
      [ids[0], 1],
      [ids[1], 2],
      [ids[3], 3],
      [ids[2], 4],
    ]);
    const atTop = await move(owner, first, "up");
    expect(atTop.data.map((q) => q.id)).toEqual([ids[0], ids[1], ids[3], ids[2]]);
    const sideways = { rawBody: { direction: "sideways" } };
    expect((await owner.call(quizzesApi.moveQuestion, { params: { id: first }, body: { direction: "up" } }, sideways)).status).toBe(400);
    expect((await remove(owner, second)).status).toBe(204);
    const after = (await quizOf(owner, quizId)).data;
    expect(after.questions.map((q) => [q.id, q.order])).toEqual([
      [ids[0], 1],
      [ids[3], 2],
      [ids[2], 3],
    ]);
    expect((await remove(owner, second)).status).toBe(404);
  });

  it("moves under the course lock: parallel moves leave a dense order", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    await Promise.all(ids.map((id, i) => move(owner, id, i % 2 ? "up" : "down")));
    const orders = (await quizOf(owner, quizId)).data.questions.map((q) => q.order);
    expect(orders).toEqual([1, 2, 3, 4]);
  });
});

describe("publishing", () => {
  it("refuses a quiz without questions and a reading lesson", async () => {
    const { quizId, readingId } = await quizCourse(owner);
    const empty = await publishQuiz(owner, quizId, { passMark: 50, attempts: null });
    expect(empty.status).toBe(400);
    expect(empty.error.message).toBe(QUESTION_MESSAGES.noQuestions);
    const reading = await publishQuiz(owner, readingId, { passMark: 50, attempts: null });
    expect(reading.status).toBe(400);
    expect(reading.error.message).toBe(QUESTION_MESSAGES.notAQuiz);
    for (const res of [await addQuestion(owner, readingId, FIRST), await quizOf(owner, readingId)]) {
      expect(res.status).toBe(400);
      expect(res.error.message).toBe(QUESTION_MESSAGES.notAQuiz);
    }
    const bad = await publishQuiz(owner, quizId, { passMark: 101, attempts: 0 });
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ passMark: "Pass mark must be between 0 and 100", attempts: "Allow at least one attempt" });
  });

  it("freezes the questions as version 1, says when the draft changed, and publishes version 2", async () => {
    const { quizId } = await quizCourse(owner);
    const [single = 0] = await addQuestions(owner, quizId);
    const first = await publish(owner, quizId, { passMark: 60, attempts: 2, showAnswers: "after_pass" });
    expect(first.published).toMatchObject({ version: 1, passMark: 60, attempts: 2, showAnswers: "after_pass" });
    expect(first.changedSincePublish).toBe(false);
    await change(owner, single, { prompt: "Changed after publishing" });
    expect((await quizOf(owner, quizId)).data).toMatchObject({ changedSincePublish: true, published: { version: 1 } });
    const second = await publish(owner, quizId);
    expect(second).toMatchObject({
      changedSincePublish: false,
      published: { version: 2, passMark: 75, attempts: 3, showAnswers: "after_each" },
    });
  });
});

describe("who may write questions", () => {
  it("a learner of a public course: 403 on every owner call, and nothing changes", async () => {
    const { quizId } = await quizCourse(owner);
    const [id = 0] = await addQuestions(owner, quizId);
    const calls = [
      await quizOf(learner, quizId),
      await addQuestion(learner, quizId, FIRST),
      await change(learner, id, { prompt: "Hijacked" }),
      await remove(learner, id),
      await move(learner, id, "down"),
      await publishQuiz(learner, quizId, { passMark: 0, attempts: null }),
    ];
    for (const res of calls) {
      expect(res.status).toBe(403);
      expect(res.error.message).toBe(COURSE_EDIT_FORBIDDEN);
    }
    const quiz = (await quizOf(owner, quizId)).data;
    expect(quiz.questions.map((q) => q.prompt)).toEqual([
      QUESTIONS[0].prompt,
      QUESTIONS[1].prompt,
      QUESTIONS[2].prompt,
      QUESTIONS[3].prompt,
    ]);
    expect(quiz.published).toBeNull();
  });

  it("someone else's private course: refused as the course is; signed out: 401; an admin may edit", async () => {
    const { quizId } = await quizCourse(owner, { open: false });
    const [id = 0] = await addQuestions(owner, quizId, [QUESTIONS[0]]);
    const hidden = await change(learner, id, { prompt: "x" });
    expect(hidden.status).toBe(403);
    expect(hidden.error.message).toBe(COURSE_FORBIDDEN);
    const anonymous = new CookieClient(t.app);
    expect((await quizOf(anonymous, quizId)).status).toBe(401);
    expect((await addQuestion(anonymous, quizId, FIRST)).status).toBe(401);
    expect((await change(admin, id, { prompt: "Fixed by an admin" })).data.prompt).toBe("Fixed by an admin");
  });
});

describe("drafting questions with the AI", () => {
  it("with no AI platform: 503 saying so; a free user: 403 naming the plan", async () => {
    const { quizId } = await quizCourse(owner);
    const none = await generate(owner, quizId);
    expect(none.status).toBe(503);
    expect(none.error.message).toMatch(/No AI platform is set up/);
    const free = await generate(learner, quizId);
    expect(free.status).toBe(403);
    expect(free.error.message).toBe(PLAN_REFUSALS.courseGeneration);
  });

  it("drafts from the module's reading lessons, keeps the valid drafts of the kinds asked, appends them", async () => {
    await pointPlatformAt(admin, "openai", fake);
    const { quizId, courseId, readingId } = await quizCourse(owner);
    await addQuestions(owner, quizId, [QUESTIONS[0]]);
    // The reading lesson cites a passage of the owner's material (issue 31): the drafts are asked with it too.
    await t.database.db
      .insert(lessonSources)
      .values({ lessonId: readingId, courseId, n: 1, kind: "file", fileName: "notes.md", passage: "Cited passage about the Seine river." });
    const before = fake.requests.length;
    const drafted = await generate(owner, quizId, { count: 5, kinds: ["single", "multiple", "short"] });
    expect(drafted.status, drafted.response.body).toBe(200);
    // The stand-in drafts one of each kind and an invalid single: the true/false was not asked, the invalid one is dropped.
    expect(drafted.data.map((q) => [q.order, q.prompt])).toEqual([
      [2, FAKE_QUESTIONS.questions[0]?.prompt],
      [3, FAKE_QUESTIONS.questions[1]?.prompt],
      [4, FAKE_QUESTIONS.questions[3]?.prompt],
    ]);
    expect(fake.requests.length - before).toBe(1);
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent).toContain("Paris is the capital of France");
    expect(sent).toContain("Cited passage about the Seine river.");
    expect(sent).toContain("quiz_questions");
    expect((await quizOf(owner, quizId)).data.questions).toHaveLength(4);
    // Nothing is shown to learners: the quiz is still unpublished.
    expect((await learner.call(quizzesApi.startAttempt, { params: { id: quizId } })).error.message).toBe(QUESTION_MESSAGES.notPublished);
  });

  it("with only true/false asked, drafts exactly that; with no reading text, refuses with what to do", async () => {
    const { quizId, courseId } = await quizCourse(owner);
    const tf = await generate(owner, quizId, { count: 3, kinds: ["truefalse"] });
    expect(tf.data.map((q) => [q.kind, q.options])).toEqual([["truefalse", ["True", "False"]]]);
    const lonely = await owner.ok(coursesApi.createModule, { params: { id: courseId }, body: { title: "Only a quiz" } });
    const quiz = await owner.ok(lessonsApi.create, { params: { id: lonely.id }, body: { title: "Q", type: "quiz", kind: "quiz" } });
    const refused = await generate(owner, quiz.id);
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe(QUESTION_MESSAGES.nothingToQuizOn);
    expect((await generate(owner, quizId, { count: 0 })).status).toBe(400);
  });
});
