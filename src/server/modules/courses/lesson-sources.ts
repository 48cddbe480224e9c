import { asc, eq, inArray, sql } from "drizzle-orm";
import { LESSON_NOT_FOUND, type LessonSource, type LessonSourceDetail } from "../../../shared/contracts/courses.js";
import { cutText } from "../../../shared/cut-text.js";
import type { Db } from "../../db/client.js";
import { lessonSources } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { readsLibrary } from "../../lib/library-access.js";
import type { Who } from "../../lib/who.js";
import { neighbourAfter, neighbourBefore, type PassageInContext, passageInContext } from "../knowledge/retrieval/passage-context.js";
import { canEdit, lessonFor } from "./access.js";
import type { MaterialPassage } from "./ai/course-material.js";
import type { Tx } from "./ordering.js";

/** How much of a passage a lesson's list shows; the whole passage opens from GET /api/lessons/{id}/sources/{n}. */
export const SOURCE_EXCERPT_CHARS = 300;

type SourceRow = typeof lessonSources.$inferSelect;

export const excerptOf = (passage: string) => cutText(passage, SOURCE_EXCERPT_CHARS);

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

/**
 * A lesson's sources become exactly the passages given to the model for it, numbered as given ([1] is the first):
 * the old ones deleted and these inserted, inside the caller's transaction (the one that stores the text).
 */
export async function replaceLessonSources(
  tx: Tx,
  lesson: { id: number; courseId: number },
  passages: readonly MaterialPassage[],
): Promise<void> {
  await tx.delete(lessonSources).where(eq(lessonSources.lessonId, lesson.id));
  if (passages.length === 0) return;
  await tx.insert(lessonSources).values(
    passages.map((p, i) => ({
      lessonId: lesson.id,
      courseId: lesson.courseId,
      n: i + 1,
      kind: p.kind,
      ...(p.kind === "file"
        ? { fileId: p.fileId, chunkId: p.chunkId, fileName: p.fileName, page: p.page }
        : { chatId: p.chatId, messageId: p.messageId }),
      passage: p.text,
    })),
  );
}

const SOURCE_NOT_FOUND = "Source not found";

type AroundRow = {
  heading_path: string | null;
  before: string | null;
  after: string | null;
  before_page: number | string | null;
  after_page: number | string | null;
};

const pageOf = (page: number | string | null) => (page === null ? null : Number(page));

/** Nothing around the passage: what a reader, or the owner of a source whose file or message is gone, is answered. */
const alone = (passage: string): PassageInContext => ({ passage, before: "", after: "", beforePage: null, afterPage: null });

/**
 * GET /api/lessons/{id}/sources/{n}: anyone who may read the lesson (a lesson they may not read is a 404, as a source
 * it does not have). The whole passage the model read (the `passage` column), the text around it (the pieces before
 * and after it in its file without the words it repeats from them, or the messages before and after it in its chat:
 * `passageInContext`, as a reply's citation, decision 058) and its heading path are the course owner's and admins'
 * only: a reader gets the stored excerpt and nothing more of the owner's material. A removed source answers its passage
 * with nothing around it (the owner's) or its excerpt (a reader's), `removed`.
 */
export async function readLessonSource({
  db,
  who,
  lessonId,
  n,
}: {
  db: Db;
  who: Who;
  lessonId: number;
  n: number;
}): Promise<LessonSourceDetail> {
  const { course } = await lessonFor(db, who, lessonId, "view").catch((error: unknown) => {
    throw error instanceof AppError && error.code === "FORBIDDEN" ? new AppError("NOT_FOUND", LESSON_NOT_FOUND) : error;
  });
  const [row] = await db
    .select()
    .from(lessonSources)
    .where(sql`${lessonSources.lessonId} = ${lessonId} and ${lessonSources.n} = ${n}`)
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", SOURCE_NOT_FOUND);
  const source = toLessonSource(row);
  // A token without files:read reads the owner's file as a reader does: the cited excerpt, nothing around it (decision 056).
  const reader = !canEdit(course, who) || (row.kind === "file" && !readsLibrary(who));
  if (reader) return { ...source, ...alone(source.excerpt), headingPath: "" };
  if (source.removed) return { ...source, ...alone(row.passage), headingPath: "" };
  const around =
    row.kind === "file"
      ? await db.execute(sql`
          select k.heading_path, b.content as before, b.page as before_page, a.content as after, a.page as after_page
          from knowledge_chunks k
            left join knowledge_chunks b on b.file_id = k.file_id and b.chunk_index = k.chunk_index - 1
            left join knowledge_chunks a on a.file_id = k.file_id and a.chunk_index = k.chunk_index + 1
          where k.id = ${row.chunkId}::int and k.user_id = ${course.userId}::int`)
      : await db.execute(sql`
          select '' as heading_path, null as before_page, null as after_page,
            (select p.content from messages p where p.id = m.parent_id and p.chat_id = m.chat_id) as before,
            (select c.content from messages c where c.parent_id = m.id and c.chat_id = m.chat_id order by c.id desc limit 1) as after
          from messages m where m.id = ${row.messageId}::int and m.user_id = ${course.userId}::int`);
  const near = around.rows[0] as AroundRow | undefined;
  const shown =
    row.kind === "file"
      ? passageInContext({
          pieces: [{ content: row.passage, page: row.page }],
          joined: false,
          before: near?.before != null ? { content: near.before, page: pageOf(near.before_page) } : null,
          after: near?.after != null ? { content: near.after, page: pageOf(near.after_page) } : null,
        })
      : // A chat's messages do not repeat each other's words: the neighbours are only cut, between two words.
        { ...alone(row.passage), before: neighbourBefore(near?.before ?? ""), after: neighbourAfter(near?.after ?? "") };
  return { ...source, ...shown, headingPath: near?.heading_path ?? "" };
}
