// Quizzes, the owner's side (issue 32, decision 040): questions added, changed (merged and checked), moved, removed;
// publishing versions; drafting questions with the AI stand-in; and who may do none of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessonSources } from "../../src/server/db/schema/index.js";
import { QUESTION_MESSAGES, TRUE_FALSE_OPTIONS } from "../../src/shared/contracts/assessment.js";
import { COURSE_EDIT_FORBIDDEN, COURSE_FORBIDDEN } from "../../src/shared/contracts/courses.js";
import { PLAN_REFUSALS } from "../../src/shared/plan.js";
import { FAKE_QUESTIONS } from "../fakes/fake-behaviour.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, adminOwnerLearner, del, publish, QUESTIONS, quizCourse } from "../helpers/quiz-kit.js";

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

type Q = { id: number; order: number; kind: string; options: string[]; correct: number[]; prompt: string };

describe("questions", () => {
  it("adds one of each kind in order, a true/false question with the server's options, and reads them back with keys", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    const quiz = (await owner.get(`/api/lessons/${quizId}/quiz`)).json();
    expect(quiz.questions.map((q: Q) => [q.id, q.order, q.kind])).toEqual([
      [ids[0], 1, "single"],
      [ids[1], 2, "multiple"],
      [ids[2], 3, "truefalse"],
      [ids[3], 4, "short"],
    ]);
    expect(quiz.questions[2].options).toEqual([...TRUE_FALSE_OPTIONS]);
    expect(quiz.questions[3]).toMatchObject({ accepted: ["Lima-accepted-keyword"], explanation: "Explained-zebra-short" });
    expect(quiz).toMatchObject({ published: null, changedSincePublish: false });

    // Sent options for a true/false question are replaced by the server's.
    const tf = await owner.post(`/api/lessons/${quizId}/questions`, {
      kind: "truefalse",
      prompt: "x",
      options: ["Yes", "No", "Maybe"],
      correct: [1],
    });
    expect(tf.statusCode).toBe(201);
    expect(tf.json().options).toEqual(["True", "False"]);
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
      const res = await owner.post(`/api/lessons/${quizId}/questions`, body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
      expect(res.json().errors).toMatchObject(errors);
      expect(res.json().message).toBe(Object.values(errors)[0]);
    }
    // A rubric with AI grading is enough for a short answer.
    const ai = await owner.post(`/api/lessons/${quizId}/questions`, { kind: "short", prompt: "p", rubric: "r", aiGrading: true });
    expect(ai.statusCode).toBe(201);
    expect((await owner.get(`/api/lessons/${quizId}/quiz`)).json().questions).toHaveLength(1);
  });

  it("changes a question merged with what is stored, and checks the merged question", async () => {
    const { quizId } = await quizCourse(owner);
    const [single, , tf] = await addQuestions(owner, quizId);
    const changed = await owner.patch(`/api/questions/${single}`, { prompt: "Pick the red planet" });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ prompt: "Pick the red planet", options: ["Rock", "Mars", "Cloud"], correct: [1] });
    expect((await owner.patch(`/api/questions/${single}`, { correct: [2] })).json().correct).toEqual([2]);
    // Fewer options than the stored key names: the merged question is refused, and nothing changes.
    const refused = await owner.patch(`/api/questions/${single}`, { options: ["Only", "Two"] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: QUESTION_MESSAGES.outOfRange, errors: { correct: QUESTION_MESSAGES.outOfRange } });
    expect((await owner.get(`/api/lessons/${quizId}/quiz`)).json().questions[0].options).toEqual(["Rock", "Mars", "Cloud"]);
    const both = await owner.patch(`/api/questions/${single}`, { options: ["Only", "Two"], correct: [0] });
    expect(both.json()).toMatchObject({ options: ["Only", "Two"], correct: [0] });
    // Becoming true/false takes the server's options.
    const toTf = await owner.patch(`/api/questions/${single}`, { kind: "truefalse", correct: [1] });
    expect(toTf.json()).toMatchObject({ kind: "truefalse", options: ["True", "False"], correct: [1] });
    expect((await owner.patch(`/api/questions/${tf}`, { prompt: "" })).json().errors).toEqual({ prompt: QUESTION_MESSAGES.prompt });
    expect((await owner.patch(`/api/questions/999999`, { prompt: "x" })).statusCode).toBe(404);
  });

  it("moves questions keeping 1..n, and removes one closing the gap", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    const moved = await owner.post(`/api/questions/${ids[3]}/move`, { direction: "up" });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().map((q: Q) => [q.id, q.order])).toEqual([
      [ids[0], 1],
      [ids[1], 2],
      [ids[3], 3],
      [ids[2], 4],
    ]);
    const atTop = await owner.post(`/api/questions/${ids[0]}/move`, { direction: "up" });
    expect(atTop.json().map((q: Q) => q.id)).toEqual([ids[0], ids[1], ids[3], ids[2]]);
    expect((await owner.post(`/api/questions/${ids[0]}/move`, { direction: "sideways" })).statusCode).toBe(400);
    expect((await del(owner, `/api/questions/${ids[1]}`)).statusCode).toBe(204);
    const after = (await owner.get(`/api/lessons/${quizId}/quiz`)).json();
    expect(after.questions.map((q: Q) => [q.id, q.order])).toEqual([
      [ids[0], 1],
      [ids[3], 2],
      [ids[2], 3],
    ]);
    expect((await del(owner, `/api/questions/${ids[1]}`)).statusCode).toBe(404);
  });

  it("moves under the course lock: parallel moves leave a dense order", async () => {
    const { quizId } = await quizCourse(owner);
    const ids = await addQuestions(owner, quizId);
    await Promise.all(ids.map((id, i) => owner.post(`/api/questions/${id}/move`, { direction: i % 2 ? "up" : "down" })));
    const orders = (await owner.get(`/api/lessons/${quizId}/quiz`)).json().questions.map((q: Q) => q.order);
    expect(orders).toEqual([1, 2, 3, 4]);
  });
});

describe("publishing", () => {
  it("refuses a quiz without questions and a reading lesson", async () => {
    const { quizId, readingId } = await quizCourse(owner);
    const empty = await owner.post(`/api/lessons/${quizId}/publish-quiz`, { passMark: 50, attempts: null });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(QUESTION_MESSAGES.noQuestions);
    const reading = await owner.post(`/api/lessons/${readingId}/publish-quiz`, { passMark: 50, attempts: null });
    expect(reading.statusCode).toBe(400);
    expect(reading.json().message).toBe(QUESTION_MESSAGES.notAQuiz);
    for (const res of [
      await owner.post(`/api/lessons/${readingId}/questions`, QUESTIONS[0]),
      await owner.get(`/api/lessons/${readingId}/quiz`),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(QUESTION_MESSAGES.notAQuiz);
    }
    const bad = await owner.post(`/api/lessons/${quizId}/publish-quiz`, { passMark: 101, attempts: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ passMark: "Pass mark must be between 0 and 100", attempts: "Allow at least one attempt" });
  });

  it("freezes the questions as version 1, says when the draft changed, and publishes version 2", async () => {
    const { quizId } = await quizCourse(owner);
    const [single] = await addQuestions(owner, quizId);
    const first = await publish(owner, quizId, { passMark: 60, attempts: 2, showAnswers: "after_pass" });
    expect(first.published).toMatchObject({ version: 1, passMark: 60, attempts: 2, showAnswers: "after_pass" });
    expect(first.changedSincePublish).toBe(false);
    await owner.patch(`/api/questions/${single}`, { prompt: "Changed after publishing" });
    expect((await owner.get(`/api/lessons/${quizId}/quiz`)).json()).toMatchObject({ changedSincePublish: true, published: { version: 1 } });
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
    const [id] = await addQuestions(owner, quizId);
    const calls = [
      await learner.get(`/api/lessons/${quizId}/quiz`),
      await learner.post(`/api/lessons/${quizId}/questions`, QUESTIONS[0]),
      await learner.patch(`/api/questions/${id}`, { prompt: "Hijacked" }),
      await del(learner, `/api/questions/${id}`),
      await learner.post(`/api/questions/${id}/move`, { direction: "down" }),
      await learner.post(`/api/lessons/${quizId}/publish-quiz`, { passMark: 0, attempts: null }),
    ];
    for (const res of calls) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(COURSE_EDIT_FORBIDDEN);
    }
    const quiz = (await owner.get(`/api/lessons/${quizId}/quiz`)).json();
    expect(quiz.questions.map((q: Q) => q.prompt)).toEqual([
      QUESTIONS[0].prompt,
      QUESTIONS[1].prompt,
      QUESTIONS[2].prompt,
      QUESTIONS[3].prompt,
    ]);
    expect(quiz.published).toBeNull();
  });

  it("someone else's private course: refused as the course is; signed out: 401; an admin may edit", async () => {
    const { quizId } = await quizCourse(owner, { open: false });
    const [id] = await addQuestions(owner, quizId, [QUESTIONS[0]]);
    const hidden = await learner.patch(`/api/questions/${id}`, { prompt: "x" });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().message).toBe(COURSE_FORBIDDEN);
    const anonymous = new CookieClient(t.app);
    expect((await anonymous.get(`/api/lessons/${quizId}/quiz`)).statusCode).toBe(401);
    expect((await anonymous.post(`/api/lessons/${quizId}/questions`, QUESTIONS[0])).statusCode).toBe(401);
    expect((await admin.patch(`/api/questions/${id}`, { prompt: "Fixed by an admin" })).json().prompt).toBe("Fixed by an admin");
  });
});

describe("drafting questions with the AI", () => {
  it("with no AI platform: 503 saying so; a free user: 403 naming the plan", async () => {
    const { quizId } = await quizCourse(owner);
    const none = await owner.post(`/api/lessons/${quizId}/questions/generate`, {});
    expect(none.statusCode).toBe(503);
    expect(none.json().message).toMatch(/No AI platform is set up/);
    const free = await learner.post(`/api/lessons/${quizId}/questions/generate`, {});
    expect(free.statusCode).toBe(403);
    expect(free.json().message).toBe(PLAN_REFUSALS.courseGeneration);
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
    const drafted = await owner.post(`/api/lessons/${quizId}/questions/generate`, { count: 5, kinds: ["single", "multiple", "short"] });
    expect(drafted.statusCode, drafted.body).toBe(200);
    // The stand-in drafts one of each kind and an invalid single: the true/false was not asked, the invalid one is dropped.
    expect(drafted.json().map((q: Q) => [q.order, q.prompt])).toEqual([
      [2, FAKE_QUESTIONS.questions[0]?.prompt],
      [3, FAKE_QUESTIONS.questions[1]?.prompt],
      [4, FAKE_QUESTIONS.questions[3]?.prompt],
    ]);
    expect(fake.requests.length - before).toBe(1);
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent).toContain("Paris is the capital of France");
    expect(sent).toContain("Cited passage about the Seine river.");
    expect(sent).toContain("quiz_questions");
    expect((await owner.get(`/api/lessons/${quizId}/quiz`)).json().questions).toHaveLength(4);
    // Nothing is shown to learners: the quiz is still unpublished.
    expect((await learner.post(`/api/lessons/${quizId}/attempts`)).json().message).toBe(QUESTION_MESSAGES.notPublished);
  });

  it("with only true/false asked, drafts exactly that; with no reading text, refuses with what to do", async () => {
    const { quizId, courseId } = await quizCourse(owner);
    const tf = await owner.post(`/api/lessons/${quizId}/questions/generate`, { count: 3, kinds: ["truefalse"] });
    expect(tf.json().map((q: Q) => [q.kind, q.options])).toEqual([["truefalse", ["True", "False"]]]);
    const lonely = (await owner.post(`/api/courses/${courseId}/modules`, { title: "Only a quiz" })).json();
    const quiz = (await owner.post(`/api/modules/${lonely.id}/lessons`, { title: "Q", type: "quiz", kind: "quiz" })).json();
    const refused = await owner.post(`/api/lessons/${quiz.id}/questions/generate`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(QUESTION_MESSAGES.nothingToQuizOn);
    expect((await owner.post(`/api/lessons/${quizId}/questions/generate`, { count: 0 })).statusCode).toBe(400);
  });
});
