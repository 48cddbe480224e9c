import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { ShortMatch } from "../../../shared/contracts/assessment.js";
import { courses, lessons } from "./courses.js";
import { users } from "./users.js";

// Assessment (issue 32, decision 040): a quiz lesson's draft questions, its published versions (each a frozen copy of
// the questions with their keys), learners' attempts and their answers saved one by one, course enrolments (when a
// learner started: drip release and analytics), and certificates.

/** A quiz lesson's questions as the owner edits them. Learners never read this table: they get a published version. */
export const quizQuestions = pgTable(
  "quiz_questions",
  {
    id: serial("id").primaryKey(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    order: integer("order").notNull(),
    /** single | multiple | truefalse | short */
    kind: text("kind").notNull(),
    prompt: text("prompt").notNull(),
    options: jsonb("options").$type<string[]>().notNull().default([]),
    correct: jsonb("correct").$type<number[]>().notNull().default([]),
    accepted: jsonb("accepted").$type<string[]>().notNull().default([]),
    rubric: text("rubric").notNull().default(""),
    aiGrading: boolean("ai_grading").notNull().default(false),
    /** Short answers: exact | contains (decision 059). */
    match: text("match").$type<ShortMatch>().notNull().default("exact"),
    explanation: text("explanation").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("quiz_questions_lesson_order_idx").on(t.lessonId, t.order)],
);

/** One published question as frozen in a version (its draft's id kept as `id`, so answers name it). */
export type FrozenQuestion = {
  id: number;
  kind: string;
  prompt: string;
  options: string[];
  correct: number[];
  accepted: string[];
  rubric: string;
  aiGrading: boolean;
  /** Absent in versions published before decision 059: exact. */
  match?: ShortMatch;
  explanation: string;
};

/** Each publish of a quiz: attempts keep the version they were taken on, so a grade never changes under a learner. */
export const quizVersions = pgTable(
  "quiz_versions",
  {
    id: serial("id").primaryKey(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    passMark: integer("pass_mark").notNull(),
    /** Attempts a learner may make; null: no limit. */
    attempts: integer("attempts"),
    /** after_each | after_pass */
    showAnswers: text("show_answers").notNull().default("after_each"),
    /** The owner lets learners ask the course's lesson tutor during an attempt on this version (decision 067); else closed. */
    tutorOpen: boolean("tutor_open").notNull().default(false),
    questions: jsonb("questions").$type<FrozenQuestion[]>().notNull(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("quiz_versions_lesson_version_idx").on(t.lessonId, t.version)],
);

/** A result of one question of a submitted attempt. */
export type StoredResult = { questionId: number; correct: boolean; gradedBy: "key" | "ai"; reasoning: string | null };

export const quizAttempts = pgTable(
  "quiz_attempts",
  {
    id: serial("id").primaryKey(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => quizVersions.id, { onDelete: "cascade" }),
    /** open | submitted */
    status: text("status").notNull().default("open"),
    score: integer("score"),
    passed: boolean("passed"),
    results: jsonb("results").$type<StoredResult[]>(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
  },
  (t) => [
    // One open attempt per learner and quiz, even when two tabs start one at once.
    uniqueIndex("quiz_attempts_one_open_idx").on(t.userId, t.lessonId).where(sql`status = 'open'`),
    index("quiz_attempts_lesson_user_idx").on(t.lessonId, t.userId, t.id),
    index("quiz_attempts_course_idx").on(t.courseId),
  ],
);

/** Each answer saved as it is chosen or typed: a reload, a closed tab or a restart loses nothing. */
export const quizAnswers = pgTable(
  "quiz_answers",
  {
    attemptId: integer("attempt_id")
      .notNull()
      .references(() => quizAttempts.id, { onDelete: "cascade" }),
    /** The question's id as frozen in the attempt's version. */
    questionId: integer("question_id").notNull(),
    value: jsonb("value").$type<number[] | string>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

/** When a learner first opened a course (drip release counts from it) and when they completed it. */
export const courseEnrollments = pgTable(
  "course_enrollments",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] }), index("course_enrollments_course_idx").on(t.courseId)],
);

/** A course's certificate for one learner; its code is the public verification URL's. Names are kept as issued. */
export const certificates = pgTable(
  "certificates",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    learnerName: text("learner_name").notNull(),
    courseTitle: text("course_title").notNull(),
    ownerName: text("owner_name").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: integer("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [uniqueIndex("certificates_code_idx").on(t.code), uniqueIndex("certificates_course_user_idx").on(t.courseId, t.userId)],
);
