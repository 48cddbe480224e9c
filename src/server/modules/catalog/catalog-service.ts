import { and, asc, desc, eq, lt, sql } from "drizzle-orm";
import { courseIdOfSlug, courseSlug } from "../../../shared/catalog-slug.js";
import {
  CATALOG_COURSE_NOT_FOUND,
  CATALOG_PREVIEW_NOT_FOUND,
  type CatalogCourse,
  type CatalogCourseDetail,
  type CatalogListQuery,
  type CatalogPreview,
} from "../../../shared/contracts/catalog.js";
import type { Db } from "../../db/client.js";
import { CATALOG_SEARCH_TEXT, courseModules, courses, IN_CATALOG, lessonSources, lessons, uploads, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { containsPattern } from "../../lib/like-pattern.js";
import { UPLOAD_URL_PREFIX } from "../../lib/stored-images.js";

/**
 * The public course catalogue (issue 33, decision 044). A course is in it while it is public, published and listed
 * (`IN_CATALOG`, the partial indexes of migration 0024) and its owner's account is active; anything else (a draft, a
 * private or unlisted course, a disabled owner, an unknown id) is the same 404, so nothing tells that it exists.
 * Every read goes to the database: unlisting or disabling hides a course at once, on every instance.
 */
const catalogColumns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  coverImage: courses.coverImage,
  userId: courses.userId,
  ownerName: sql<string>`coalesce(nullif(${users.name}, ''), ${users.username})`,
  // One statement for the page: the count comes from lessons_course_idx per row, never a query per course.
  lessonCount: sql<number>`(select count(*)::int from ${lessons} where ${lessons.courseId} = ${courses.id})`,
};
type CatalogRow = { id: number; title: string; description: string; coverImage: string | null; ownerName: string; lessonCount: number };

const listedCourse = and(sql`${IN_CATALOG(courses)}`, eq(users.status, "active"));

function toCatalogCourse(row: CatalogRow): CatalogCourse {
  const slug = courseSlug(row.title, row.id);
  return {
    id: row.id,
    slug,
    title: row.title,
    description: row.description,
    cover: row.coverImage ? `/api/catalog/${slug}/cover` : null,
    ownerName: row.ownerName,
    lessonCount: Number(row.lessonCount),
  };
}

/** One page of the catalogue, newest first; `q` looks in title and description through the trigram index. */
export async function listCatalog(options: {
  db: Db;
  query: CatalogListQuery;
}): Promise<{ items: CatalogCourse[]; nextCursor: string | null }> {
  const { db, query } = options;
  const search = query.q ? sql`${CATALOG_SEARCH_TEXT(courses)} ilike ${containsPattern(query.q)}` : undefined;
  const rows = await db
    .select(catalogColumns)
    .from(courses)
    .innerJoin(users, eq(users.id, courses.userId))
    .where(and(listedCourse, search, query.cursor ? lt(courses.id, Number(query.cursor)) : undefined))
    .orderBy(desc(courses.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toCatalogCourse), nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

/** The catalogue course a slug names (by its id; an older title in the slug still finds it), or a 404. */
async function listedCourseBySlug(db: Db, slug: string) {
  const id = courseIdOfSlug(slug);
  if (id === null) throw new AppError("NOT_FOUND", CATALOG_COURSE_NOT_FOUND);
  const [row] = await db
    .select(catalogColumns)
    .from(courses)
    .innerJoin(users, eq(users.id, courses.userId))
    .where(and(eq(courses.id, id), listedCourse))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", CATALOG_COURSE_NOT_FOUND);
  return row;
}

/** The lessons in reading order, with their module: one query. */
function outlineRows(db: Db, courseId: number) {
  return db
    .select({
      moduleId: courseModules.id,
      moduleTitle: courseModules.title,
      moduleDays: courseModules.releaseAfterDays,
      lessonId: lessons.id,
      lessonTitle: lessons.title,
      lessonDays: lessons.releaseAfterDays,
      content: lessons.content,
    })
    .from(courseModules)
    .leftJoin(lessons, eq(lessons.moduleId, courseModules.id))
    .where(eq(courseModules.courseId, courseId))
    .orderBy(asc(courseModules.order), asc(courseModules.id), asc(lessons.order), asc(lessons.id));
}
type OutlineRow = Awaited<ReturnType<typeof outlineRows>>[number];

/**
 * The preview is the course's first lesson in reading order, when it is open from the start (no drip delay on it or
 * its module): a visitor has no start date for a later one to count from.
 */
function previewLesson(rows: OutlineRow[]) {
  const first = rows.find((row) => row.lessonTitle !== null);
  if (!first || (first.lessonDays ?? 0) > 0 || (first.moduleDays ?? 0) > 0) return null;
  return first;
}

/** A course's landing page: what the list shows, its outline (module and lesson titles) and whether a preview exists. */
export async function getCatalogCourse(options: { db: Db; slug: string }): Promise<CatalogCourseDetail> {
  const row = await listedCourseBySlug(options.db, options.slug);
  const rows = await outlineRows(options.db, row.id);
  const modules: CatalogCourseDetail["modules"] = [];
  let moduleId: number | null = null;
  for (const line of rows) {
    if (line.moduleId !== moduleId) {
      modules.push({ title: line.moduleTitle, lessons: [] });
      moduleId = line.moduleId;
    }
    if (line.lessonTitle !== null) modules.at(-1)?.lessons.push({ title: line.lessonTitle });
  }
  return { ...toCatalogCourse(row), modules, hasPreview: previewLesson(rows) !== null };
}

/**
 * The sources a preview lesson numbers as [n], as a visitor may see them (decision 058): the file's name and page, or
 * the courses' "chat · message" for a chat's message; never their text, which is the course owner's material.
 */
async function previewSources(db: Db, lessonId: number): Promise<CatalogPreview["sources"]> {
  const rows = await db
    .select({ n: lessonSources.n, kind: lessonSources.kind, fileName: lessonSources.fileName, page: lessonSources.page })
    .from(lessonSources)
    .where(eq(lessonSources.lessonId, lessonId))
    .orderBy(asc(lessonSources.n));
  return rows.map((s) => ({
    n: s.n,
    name: s.kind === "message" ? "chat · message" : (s.fileName ?? "file"),
    page: s.kind === "message" ? null : s.page,
  }));
}

/** The first lesson of a catalogue course, for anyone; 404 when the course or its preview is not there. */
export async function getCatalogPreview(options: { db: Db; slug: string }): Promise<CatalogPreview> {
  const row = await listedCourseBySlug(options.db, options.slug);
  const lesson = previewLesson(await outlineRows(options.db, row.id));
  if (!lesson?.lessonTitle || lesson.lessonId === null) throw new AppError("NOT_FOUND", CATALOG_PREVIEW_NOT_FOUND);
  return {
    courseId: row.id,
    courseTitle: row.title,
    slug: courseSlug(row.title, row.id),
    moduleTitle: lesson.moduleTitle,
    title: lesson.lessonTitle,
    content: lesson.content ?? "",
    lessonCount: Number(row.lessonCount),
    sources: await previewSources(options.db, lesson.lessonId),
  };
}

/** The cover image of a catalogue course (stored under its owner's id, as `setCover` stores it); 404 when it has none. */
export async function getCatalogCover(options: { db: Db; slug: string }): Promise<{ mimeType: string; data: Uint8Array }> {
  const row = await listedCourseBySlug(options.db, options.slug);
  if (!row.coverImage?.startsWith(UPLOAD_URL_PREFIX)) throw new AppError("NOT_FOUND", "File not found");
  const [file] = await options.db
    .select({ mimeType: uploads.mimeType, data: uploads.data })
    .from(uploads)
    .where(and(eq(uploads.id, row.coverImage.slice(UPLOAD_URL_PREFIX.length)), eq(uploads.userId, row.userId)))
    .limit(1);
  if (!file) throw new AppError("NOT_FOUND", "File not found");
  return file;
}

/** Every course in the catalogue, for /sitemap.xml: slugs only, newest first (at most 50,000, a sitemap's limit). */
export async function catalogSlugs(options: { db: Db }): Promise<string[]> {
  const rows = await options.db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .innerJoin(users, eq(users.id, courses.userId))
    .where(listedCourse)
    .orderBy(desc(courses.id))
    .limit(50_000);
  return rows.map((row) => courseSlug(row.title, row.id));
}
