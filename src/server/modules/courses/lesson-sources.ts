import { asc, inArray } from "drizzle-orm";
import type { LessonSource } from "../../../shared/contracts/courses.js";
import type { Db } from "../../db/client.js";
import { lessonSources } from "../../db/schema/index.js";

/** How much of a passage a lesson's list shows; the whole passage opens from GET /api/lessons/{id}/sources/{n}. */
export const SOURCE_EXCERPT_CHARS = 300;

type SourceRow = typeof lessonSources.$inferSelect;

export const excerptOf = (passage: string) =>
  passage.length > SOURCE_EXCERPT_CHARS ? `${passage.slice(0, SOURCE_EXCERPT_CHARS).trimEnd()}…` : passage;

/** A stored source as a lesson carries it: a deleted file or message leaves the entry, marked `removed`. */
export function toLessonSource(row: SourceRow): LessonSource {
  const removed = row.kind === "file" ? row.fileId === null : row.messageId === null;
  return {
    n: row.n,
    kind: row.kind === "message" ? "message" : "file",
    ...(row.fileId !== null ? { fileId: row.fileId } : {}),
    ...(row.fileName !== null ? { fileName: row.fileName } : {}),
    ...(row.page !== null ? { page: row.page } : {}),
    ...(row.chatId !== null ? { chatId: row.chatId } : {}),
    ...(row.messageId !== null ? { messageId: row.messageId } : {}),
    excerpt: excerptOf(row.passage),
    removed,
  };
}

/** The sources of these lessons, each lesson's in the order its text numbers them; one query. */
export async function sourcesOfLessons(db: Pick<Db, "select">, lessonIds: readonly number[]): Promise<Map<number, LessonSource[]>> {
  const byLesson = new Map<number, LessonSource[]>();
  if (lessonIds.length === 0) return byLesson;
  const rows = await db
    .select()
    .from(lessonSources)
    .where(inArray(lessonSources.lessonId, [...lessonIds]))
    .orderBy(asc(lessonSources.lessonId), asc(lessonSources.n));
  for (const row of rows) {
    const list = byLesson.get(row.lessonId) ?? [];
    list.push(toLessonSource(row));
    byLesson.set(row.lessonId, list);
  }
  return byLesson;
}
