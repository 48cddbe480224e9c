import { sql } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { Db } from "../../src/server/db/client.js";
import type { FrozenQuestion } from "../../src/server/db/schema/index.js";
import { type CookieClient, registerAndSignIn } from "./build-test-app.js";

// Quiz fixtures for the API tests (issue 32): a course with a reading lesson and a quiz lesson, one question of each
// kind with keys and explanations that no learner answer may contain before submit, and the PUT/DELETE calls the
// cookie client does not name.

export const put = (client: CookieClient, url: string, payload: unknown): Promise<LightMyRequestResponse> =>
  client.request({ method: "PUT", url, payload: payload as string });
export const del = (client: CookieClient, url: string): Promise<LightMyRequestResponse> => client.request({ method: "DELETE", url });

/** One question of each kind; every key value and explanation is a word found nowhere else, so a leak is searchable. */
export const QUESTIONS = [
  {
    kind: "single",
    prompt: "Pick the planet",
    options: ["Rock", "Mars", "Cloud"],
    correct: [1],
    explanation: "Explained-zebra-single",
  },
  {
    kind: "multiple",
    prompt: "Pick the primes",
    options: ["Two", "Four", "Five", "Nine"],
    correct: [0, 2],
    explanation: "Explained-zebra-multiple",
  },
  { kind: "truefalse", prompt: "The sun is a star", correct: [0], explanation: "Explained-zebra-truefalse" },
  {
    kind: "short",
    prompt: "Name the capital of Peru",
    accepted: ["Lima-accepted-keyword"],
    rubric: "Rubric-keyword: any spelling of the capital",
    explanation: "Explained-zebra-short",
  },
] as const;

/** What a learner must never see before submitting: every key text, rubric and explanation. */
export const SECRETS = ["Explained-zebra", "Lima-accepted-keyword", "Rubric-keyword"];

/** Right answers to `QUESTIONS`, in order. */
export const RIGHT: (number[] | string)[] = [[1], [0, 2], [0], "  lima-ACCEPTED-keyword "];

export interface QuizCourse {
  courseId: number;
  moduleId: number;
  readingId: number;
  quizId: number;
}

/** A course (public and published unless told) with a reading lesson and a quiz lesson. */
export async function quizCourse(owner: CookieClient, { open = true }: { open?: boolean } = {}): Promise<QuizCourse> {
  const course = await owner.post("/api/courses", { title: "Quiz course" });
  expect(course.statusCode).toBe(201);
  const courseId = course.json().id as number;
  if (open) expect((await owner.patch(`/api/courses/${courseId}`, { isPublic: true, status: "published" })).statusCode).toBe(200);
  const moduleId = (await owner.post(`/api/courses/${courseId}/modules`, { title: "Module" })).json().id as number;
  const reading = await owner.post(`/api/modules/${moduleId}/lessons`, {
    title: "Reading",
    type: "reading",
    content: "The sky is blue. Apples and pears are fruits. Paris is the capital of France.",
  });
  expect(reading.statusCode).toBe(201);
  const quiz = await owner.post(`/api/modules/${moduleId}/lessons`, { title: "Check yourself", type: "quiz", kind: "quiz", content: "" });
  expect(quiz.statusCode).toBe(201);
  return { courseId, moduleId, readingId: reading.json().id, quizId: quiz.json().id };
}

/** Adds `QUESTIONS` (or the bodies given) to a quiz; the new questions' ids in order. */
export async function addQuestions(owner: CookieClient, quizId: number, bodies: readonly object[] = QUESTIONS): Promise<number[]> {
  const ids: number[] = [];
  for (const body of bodies) {
    const added = await owner.post(`/api/lessons/${quizId}/questions`, body);
    expect(added.statusCode, added.body).toBe(201);
    ids.push(added.json().id);
  }
  return ids;
}

export async function publish(owner: CookieClient, quizId: number, settings: object = { passMark: 75, attempts: 3 }) {
  const published = await owner.post(`/api/lessons/${quizId}/publish-quiz`, settings);
  expect(published.statusCode, published.body).toBe(200);
  return published.json();
}

/** A published version's two questions as stored (frozen, keys in), for tests that seed quiz results without the routes. */
export const FROZEN_QUESTIONS: FrozenQuestion[] = [
  {
    id: 1,
    kind: "single",
    prompt: "First question",
    options: ["a", "b"],
    correct: [0],
    accepted: [],
    rubric: "",
    aiGrading: false,
    explanation: "",
  },
  {
    id: 2,
    kind: "truefalse",
    prompt: "Second question",
    options: ["True", "False"],
    correct: [1],
    accepted: [],
    rubric: "",
    aiGrading: false,
    explanation: "",
  },
];

/** Version 1 of a quiz lesson, published with `FROZEN_QUESTIONS` (pass mark 60, no attempt limit); its id. */
export async function seedPublishedQuiz(db: Db, lessonId: number): Promise<number> {
  const result = await db.execute(
    sql`insert into quiz_versions (lesson_id, version, pass_mark, attempts, questions) values (${lessonId}, 1, 60, null, ${JSON.stringify(FROZEN_QUESTIONS)}::jsonb) returning id`,
  );
  return Number((result.rows[0] as { id: number }).id);
}

/** A submitted attempt at a `seedPublishedQuiz` version, wrong on the questions `missed` names. */
export async function seedAttempt(
  db: Db,
  a: { userId: number; lessonId: number; courseId: number; versionId: number; score: number; passed: boolean; missed: readonly number[] },
): Promise<void> {
  const results = FROZEN_QUESTIONS.map((q) => ({ questionId: q.id, correct: !a.missed.includes(q.id), gradedBy: "key", reasoning: null }));
  await db.execute(sql`insert into quiz_attempts (lesson_id, course_id, user_id, version_id, status, score, passed, results, submitted_at)
    values (${a.lessonId}, ${a.courseId}, ${a.userId}, ${a.versionId}, 'submitted', ${a.score}, ${a.passed}, ${JSON.stringify(results)}::jsonb, now())`);
}

/** The quiz tests' three people on a fresh database: the admin (first account), an Early Access owner and a learner. */
export async function adminOwnerLearner(app: FastifyInstance) {
  const admin = (await registerAndSignIn(app)).client;
  const registered = await registerAndSignIn(app);
  expect((await admin.patch(`/api/admin/users/${registered.user.id}`, { planType: "earlyAccess" })).statusCode).toBe(200);
  const learner = (await registerAndSignIn(app)).client;
  return { admin, owner: registered.client, learner };
}
