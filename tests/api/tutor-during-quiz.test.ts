import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quizzesApi } from "../../src/shared/contracts/assessment.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { lessonsApi, tutorClosedForQuiz } from "../../src/shared/contracts/courses.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient as Client, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { addQuestions, adminOwnerLearner, type QuizCourse, quizCourse } from "../helpers/quiz-kit.js";

/**
 * Issue 42 item 17 (decision 067): the lesson tutor is closed while the learner has an attempt in progress on a graded
 * quiz of the course (every lesson's tutor: opening it and every reply, before anything is stored or asked), opens again
 * once the attempt is submitted, stays open for the course's owner and admins, and opens during attempts when the
 * quiz's owner published it so; only the owner (or an admin) may.
 */
let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let learner: CookieClient;
let outsider: CookieClient;
let course: QuizCourse;
let other: QuizCourse;
const QUIZ_TITLE = "Check yourself";
const CLOSED = tutorClosedForQuiz(QUIZ_TITLE);
const ONE_QUESTION = [{ kind: "single", prompt: "Pick the planet", options: ["Rock", "Mars"], correct: [1] }];

const openTutor = (client: CookieClient, lessonId: number) => client.call(lessonsApi.tutor, { params: { id: lessonId } });
const ask = (client: CookieClient, chatId: number, content = "What is this lesson about?") =>
  client.call(chatsApi.reply, { params: { id: chatId }, body: { content } });
const PUBLISHED = { passMark: 50, attempts: null };
const publish = (client: CookieClient, quizId: number, tutorOpen?: boolean) =>
  client.call(quizzesApi.publish, { params: { id: quizId }, body: { ...PUBLISHED, ...(tutorOpen === undefined ? {} : { tutorOpen }) } });
const start = async (client: CookieClient, quizId: number) => {
  const res = await client.call(quizzesApi.startAttempt, { params: { id: quizId } });
  expect(res.status, res.response.body).toBe(200);
  return res.data;
};
const submit = async (client: CookieClient, attemptId: number) => {
  const res = await client.call(quizzesApi.submit, { params: { id: attemptId } });
  expect(res.status, res.response.body).toBe(200);
};
const messagesOf = async (client: CookieClient, chatId: number) =>
  (await client.ok(chatsApi.messages, { params: { id: chatId } })).items.length;
/** The quiz's published settings, unparsed (compared whole before and after a refusal). */
const publishedOf = async (quizId: number) => (await owner.call(quizzesApi.quiz, { params: { id: quizId } })).response.json().published;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, owner, learner } = await adminOwnerLearner(t.app));
  outsider = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  course = await quizCourse(owner);
  other = await quizCourse(owner);
  for (const quiz of [course.quizId, other.quizId]) {
    await addQuestions(owner, quiz, ONE_QUESTION);
    const res = await publish(owner, quiz);
    expect(res.status, res.response.body).toBe(200);
    // The default: closed.
    expect(res.data.published).toMatchObject({ tutorOpen: false });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("the lesson tutor during a graded quiz (decision 067)", () => {
  let chatId: number;

  it("is open with no attempt in progress", async () => {
    const opened = await openTutor(learner, course.readingId);
    expect(opened.status, opened.response.body).toBe(200);
    chatId = opened.data.chatId;
    expect((await ask(learner, chatId)).status).toBe(200);
  });

  it("is closed for every lesson of the course while an attempt is in progress: no provider call, nothing stored", async () => {
    const attempt = await start(learner, course.quizId);
    expect(attempt.status).toBe("open");
    for (const lessonId of [course.readingId, course.quizId]) {
      const refused = await openTutor(learner, lessonId);
      expect(refused.status).toBe(403);
      // The refusal whole, unparsed.
      expect(refused.response.json()).toEqual({ message: CLOSED });
    }
    const before = fake.requests.length;
    const stored = await messagesOf(learner, chatId);
    const reply = await ask(learner, chatId, "Which option is the planet?");
    expect(reply.status).toBe(403);
    expect(reply.response.json()).toEqual({ message: CLOSED });
    expect((await learner.call(chatsApi.regenerate, { params: { id: chatId }, body: {} })).status).toBe(403);
    expect(fake.requests.length).toBe(before);
    expect(await messagesOf(learner, chatId)).toBe(stored);

    // Another course's tutor is not held by this quiz; the course's owner and admins are never held.
    expect((await openTutor(learner, other.readingId)).status).toBe(200);
    const ownersAttempt = await start(owner, course.quizId);
    const ownTutor = await openTutor(owner, course.readingId);
    expect(ownTutor.status, ownTutor.response.body).toBe(200);
    expect((await ask(owner, ownTutor.data.chatId)).status).toBe(200);
    await submit(owner, ownersAttempt.id);
    expect((await openTutor(admin, course.readingId)).status).toBe(200);
    // Signed out is still 401 first.
    expect((await openTutor(new Client(t.app), course.readingId)).status).toBe(401);

    await submit(learner, attempt.id);
  });

  it("opens again once the attempt is submitted", async () => {
    expect((await openTutor(learner, course.readingId)).status).toBe(200);
    expect((await ask(learner, chatId, "And now?")).status).toBe(200);
  });

  it("stays open during attempts on a version the owner published with the tutor allowed, and only for those", async () => {
    const allowed = await publish(owner, course.quizId, true);
    expect(allowed.status, allowed.response.body).toBe(200);
    expect(allowed.data.published).toMatchObject({ tutorOpen: true });
    const attempt = await start(learner, course.quizId);
    expect((await openTutor(learner, course.readingId)).status).toBe(200);
    expect((await ask(learner, chatId, "During the quiz?")).status).toBe(200);
    // Published again with the tutor closed: the attempt in progress keeps its version's rule; the next one is held.
    expect((await publish(owner, course.quizId, false)).status).toBe(200);
    expect((await openTutor(learner, course.readingId)).status).toBe(200);
    await submit(learner, attempt.id);
    const next = await start(learner, course.quizId);
    expect((await openTutor(learner, course.readingId)).status).toBe(403);
    await submit(learner, next.id);
  });

  it("is the owner's (or an admin's) to allow: another user cannot change it", async () => {
    const before = await publishedOf(course.quizId);
    for (const client of [learner, outsider]) {
      const refused = await publish(client, course.quizId, true);
      expect(refused.status).toBe(403);
    }
    expect((await publish(new Client(t.app), course.quizId, true)).status).toBe(401);
    const bad = await owner.call(
      quizzesApi.publish,
      { params: { id: course.quizId }, body: PUBLISHED },
      { rawBody: { ...PUBLISHED, tutorOpen: "yes" } },
    );
    expect(bad.status).toBe(400);
    expect(await publishedOf(course.quizId)).toEqual(before);
    const byAdmin = await publish(admin, course.quizId, true);
    expect(byAdmin.status, byAdmin.response.body).toBe(200);
    expect(byAdmin.data.published).toMatchObject({ tutorOpen: true, version: (before?.version ?? 0) + 1 });
  });
});
