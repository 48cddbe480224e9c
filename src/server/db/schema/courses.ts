import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "./users.js";

/** `courseSourcesSchema`'s output as stored (issue 31). */
export type CourseSourceScope = { fileIds?: number[]; collectionId?: number; chatId?: number; folderId?: number };

/**
 * The text the catalogue's search looks in (title and description), lower-cased: one expression for the trigram index
 * and the query (`ILIKE '%term%'`), as USER_SEARCH_TEXT is for the admin's user search (issue 33).
 */
export const CATALOG_SEARCH_TEXT = (t: { title: AnyPgColumn; description: AnyPgColumn }) =>
  sql`lower(${t.title} || ' ' || ${t.description})`;

/** What lets every signed-in user read a course: public and published (issue 6; `isOpenToAll` in courses/access.ts). */
export const OPEN_TO_ALL = (t: { isPublic: AnyPgColumn; status: AnyPgColumn }) => sql`${t.isPublic} and ${t.status} = 'published'`;

/** What puts a course in the visitors' catalogue (its owner's account being active is checked in the query too). */
export const IN_CATALOG = (t: { isPublic: AnyPgColumn; status: AnyPgColumn; listedInCatalog: AnyPgColumn }) =>
  sql`${OPEN_TO_ALL(t)} and ${t.listedInCatalog}`;

export const courses = pgTable(
  "courses",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** draft | published */
    status: text("status").notNull().default("draft"),
    isPublic: boolean("is_public").notNull().default(false),
    /** A public, published course is listed in the visitors' catalogue (issue 33) unless the owner turns this off. */
    listedInCatalog: boolean("listed_in_catalog").notNull().default(true),
    coverImage: text("cover_image"),
    /** classic | modern | minimal: how the course's certificate looks (decision 062). */
    certificateStyle: text("certificate_style").notNull().default("classic"),
    /** What the course was made from (issue 31: files, a collection, a chat or a folder); null for a course from a title. */
    sourceScope: jsonb("source_scope").$type<CourseSourceScope>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("courses_user_idx").on(t.userId, t.id),
    index("courses_public_idx").on(t.isPublic, t.status, t.id),
    // The catalogue (issue 33): its pages newest first, and its search, over the listed courses only.
    index("courses_catalog_idx").on(t.id).where(IN_CATALOG(t)),
    index("courses_catalog_search_trgm_idx")
      .using("gin", sql`${CATALOG_SEARCH_TEXT(t)} gin_trgm_ops`)
      .where(IN_CATALOG(t)),
  ],
);

export const courseModules = pgTable(
  "course_modules",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    order: integer("order").notNull(),
    /** Drip release (issue 32): opens this many days after the learner started the course; null: at once. */
    releaseAfterDays: integer("release_after_days"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("course_modules_course_order_idx").on(t.courseId, t.order)],
);

export const lessons = pgTable(
  "lessons",
  {
    id: serial("id").primaryKey(),
    moduleId: integer("module_id")
      .notNull()
      .references(() => courseModules.id, { onDelete: "cascade" }),
    /** Copied from the module, so a course's outline and permissions need no extra join. */
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** reading | video | quiz | exercise */
    type: text("type").notNull().default("reading"),
    /** reading | quiz (issue 32): a quiz lesson holds questions (quiz_questions) and is passed, not read. */
    kind: text("kind").notNull().default("reading"),
    /** Drip release (issue 32): opens this many days after the learner started the course; null: at once. */
    releaseAfterDays: integer("release_after_days"),
    content: text("content").notNull().default(""),
    /** What an approved AI outline said the lesson covers; guides the writing of its body. */
    summary: text("summary").notNull().default(""),
    order: integer("order").notNull(),
    aiGenerated: boolean("ai_generated").notNull().default(false),
    /**
     * Written from the course's material when no passage of it cleared the relevance floor (decision 067): the lesson
     * has no sources and says so. Set by each AI write from material (a run, a regenerate), never by a hand edit.
     */
    withoutSource: boolean("without_source").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lessons_module_order_idx").on(t.moduleId, t.order), index("lessons_course_idx").on(t.courseId)],
);

/** Earlier contents of a lesson (kept when the content changes), newest restored on request. */
export const lessonVersions = pgTable(
  "lesson_versions",
  {
    id: serial("id").primaryKey(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("lesson_versions_lesson_idx").on(t.lessonId, t.id)],
);

/** A reader's completed lessons. */
export const lessonCompletions = pgTable(
  "lesson_completions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.lessonId] }), index("lesson_completions_course_idx").on(t.courseId, t.userId)],
);

/**
 * Writing the bodies of an approved outline's lessons, one by one. The hints are kept
 * here (not on the course) only so a stopped, failed or interrupted run can resume.
 */
export const courseGenerationRuns = pgTable(
  "course_generation_runs",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** running | stopped | failed | done */
    status: text("status").notNull().default("running"),
    lessonIds: jsonb("lesson_ids").$type<number[]>().notNull(),
    done: integer("done").notNull().default(0),
    currentLessonId: integer("current_lesson_id"),
    hints: jsonb("hints").$type<Record<string, string>>().notNull(),
    /** The material each lesson is written from (issue 31), kept so a resumed run retrieves from the same; null: none. */
    sources: jsonb("sources").$type<CourseSourceScope>(),
    error: text("error"),
    /** The instance writing it; a run whose instance is gone is marked stopped. */
    owner: text("owner"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("course_generation_runs_course_idx").on(t.courseId, t.id),
    // One run writing a course at a time, even when two approvals or resumes race.
    uniqueIndex("course_generation_runs_one_running_idx").on(t.courseId).where(sql`status = 'running'`),
  ],
);
