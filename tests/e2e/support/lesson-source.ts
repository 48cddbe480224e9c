import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { lessonSources } from "../../../src/server/db/schema/index.js";
import type { KnowledgeFile } from "../../../src/shared/contracts/knowledge.js";
import type { CookieClient } from "../../helpers/build-test-app.js";
import { settledFile } from "../../helpers/knowledge-files.js";
import { multipartFile } from "../../helpers/multipart.js";
import type { Harness } from "./harness.js";

/**
 * Uploads `text` as the owner's handbook.md and makes one of its pieces (the first unless `piece` names another) the
 * lesson's source 1 (what a grounded lesson keeps). Answers the pieces, in order.
 */
export async function citeHandbook(
  h: Harness,
  owner: CookieClient,
  text: string,
  lesson: { lessonId: number; courseId: number },
  piece = 0,
): Promise<string[]> {
  const uploaded = await owner.request({
    method: "POST",
    url: "/api/files",
    ...multipartFile("file", "handbook.md", "text/markdown", new TextEncoder().encode(text)),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const file = await settledFile(owner, (uploaded.json() as KnowledgeFile).id);
  expect(file.status).toBe("ready");
  const chunks = await h.app.ctx.db.execute(sql`select id, content from knowledge_chunks where file_id = ${file.id} order by chunk_index`);
  const pieces = chunks.rows as { id: number; content: string }[];
  const cited = pieces[piece];
  if (!cited) throw new Error(`the handbook has no piece ${piece}`);
  await h.app.ctx.db.insert(lessonSources).values({
    ...lesson,
    n: 1,
    kind: "file",
    fileId: file.id,
    chunkId: Number(cited.id),
    fileName: "handbook.md",
    passage: cited.content,
  });
  return pieces.map((p) => p.content);
}

/**
 * The owner's public, published course with one module and one reading lesson whose source 1 is a piece of `text`
 * (handbook.md; the first unless `piece` names another). Answers the ids and the handbook's pieces.
 */
export async function publicLessonCiting(
  h: Harness,
  owner: CookieClient,
  made: { course: string; module: string; lesson: string; content: string },
  text: string,
  piece = 0,
) {
  const course = (await owner.post("/api/courses", { title: made.course, isPublic: true, status: "published" })).json() as { id: number };
  const module = (await owner.post(`/api/courses/${course.id}/modules`, { title: made.module })).json() as { id: number };
  const lesson = await owner.post(`/api/modules/${module.id}/lessons`, { title: made.lesson, type: "reading", content: made.content });
  expect(lesson.statusCode, lesson.body).toBe(201);
  const lessonId = (lesson.json() as { id: number }).id;
  const pieces = await citeHandbook(h, owner, text, { lessonId, courseId: course.id }, piece);
  return { courseId: course.id, moduleId: module.id, lessonId, pieces };
}
