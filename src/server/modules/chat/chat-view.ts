import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { TOKEN_MESSAGES } from "../../../shared/contracts/api-tokens.js";
import type { Chat, Citation, Message, MessageStatus, ShownMessage, TutorLessonRef } from "../../../shared/contracts/chat.js";
import { BUILTIN_TOOLS, type ToolCall } from "../../../shared/contracts/tools.js";
import { chats, messages, type StoredCitation, type StoredToolCall } from "../../db/schema/index.js";

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/**
 * A chat's collections (issue 30), as a column of the query that reads the chat (`chats` unaliased): one indexed
 * lookup of the link table's primary key per chat read, never a second query.
 */
export const chatCollectionIds = sql<number[] | null>`(select array_agg(cc.collection_id order by cc.collection_id)
  from chat_collections cc where cc.chat_id = ${chats.id})`;

/**
 * The lesson a tutor chat is bound to (issue 31), as a column of the query that reads the chat: one primary-key lookup,
 * only for a chat that has one. `lessonId`: the chat's `tutor_lesson_id` as the query names it.
 */
export const tutorLessonColumn = (lessonId: SQL) =>
  sql<TutorLessonRef | string | null>`(select json_build_object('id', l.id, 'title', l.title, 'courseId', l.course_id)
    from lessons l where l.id = ${lessonId})`;

export const chatTutorLesson = tutorLessonColumn(sql`${chats.tutorLessonId}`);

/** The chat's columns, its collections and its lesson: what `toChat` takes. */
export const chatColumns = { ...getTableColumns(chats), collectionIds: chatCollectionIds, tutorLesson: chatTutorLesson };

function toTutorLesson(value: TutorLessonRef | string | null): TutorLessonRef | null {
  if (value === null) return null;
  const ref = (typeof value === "string" ? JSON.parse(value) : value) as TutorLessonRef;
  return { id: Number(ref.id), title: String(ref.title), courseId: Number(ref.courseId) };
}

export function toChat(
  row: Pick<
    ChatRow,
    "id" | "title" | "aiPlatform" | "model" | "temporary" | "personalityId" | "folderId" | "pinnedAt" | "tools" | "createdAt" | "updatedAt"
  > & { collectionIds: readonly number[] | null; tutorLesson: TutorLessonRef | string | null },
): Chat {
  return {
    id: row.id,
    title: row.title,
    aiPlatform: row.aiPlatform,
    model: row.model,
    temporary: row.temporary,
    personalityId: row.personalityId,
    folderId: row.folderId,
    pinned: row.pinnedAt !== null,
    collectionIds: (row.collectionIds ?? []).map(Number),
    tutorLesson: toTutorLesson(row.tutorLesson),
    tools: [...(row.tools ?? [])].sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The schema's `messages` columns, listed once (a reply's start reads two rows through them). */
const MESSAGE_COLUMNS = Object.entries(getTableColumns(messages));

/**
 * A `messages` row as the database gives it in JSON (`to_jsonb(row)`: a reply's start, migration 0015), read
 * through the schema's own columns and their mapping (timestamps to dates), as a select would give it.
 */

export function messageRowFromJson(json: Record<string, unknown>): MessageRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of MESSAGE_COLUMNS) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as MessageRow;
}

/**
 * The attachments' text stays on the server (it goes to the model); the browser sees names, sizes and types.
 * `missingFileIds`: the library files named by the row that are gone (read by a left join with the row).
 */
export function toMessage(row: MessageRow, missingFileIds: readonly number[] | null = null): Message {
  return {
    id: row.id,
    chatId: row.chatId,
    parentId: row.parentId,
    role: row.role as Message["role"],
    content: row.content,
    status: row.status as MessageStatus,
    error: row.error,
    platformSlug: row.platformSlug,
    model: row.model,
    attachments: row.attachments.map((a) => ({
      name: a.name,
      size: a.size,
      fileId: a.fileId ?? null,
      type: a.mimeType ?? null,
      kind: a.kind ?? null,
      missing: a.missing === true || (a.fileId !== undefined && (missingFileIds ?? []).map(Number).includes(a.fileId)),
    })),
    citations: row.citations.map(toCitation),
    toolCalls: (row.toolCalls ?? []).map(toToolCall),
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    personalityName: row.personalityName,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A stored tool call as its card shows it (issue 34). */
export function toToolCall(call: StoredToolCall): ToolCall {
  return {
    id: call.id,
    tool: call.tool,
    name: call.name ?? call.tool,
    args: call.args && typeof call.args === "object" && !Array.isArray(call.args) ? (call.args as Record<string, unknown>) : {},
    result: call.result,
    status: call.status,
    textOffset: call.textOffset,
    sources: (call.sources ?? []).map(toCitation),
  };
}

/** A stored citation as the browser sees it: without the chunk's id (decision 037). */
export function toCitation(c: StoredCitation): Citation {
  return { n: c.n, fileId: c.fileId, fileName: c.fileName, page: c.page, excerpt: c.excerpt };
}

/** A message of the branch shown, with its place among its siblings ("2 / 3"). */
export function toShownMessage(row: MessageRow, siblingIds: number[] | null, missingFileIds: number[] | null = null): ShownMessage {
  const ids = siblingIds?.length ? siblingIds.map(Number) : [row.id];
  return { ...toMessage(row, missingFileIds), branch: { index: ids.indexOf(row.id) + 1, count: ids.length, siblingIds: ids } };
}

/** A call as a caller who may not reach the library sees it: a search_files call's passages hidden (decision 056). */
export function callWithoutPassages(call: ToolCall): ToolCall {
  if (call.tool !== BUILTIN_TOOLS.searchFiles) return call;
  return { ...call, result: call.result === null ? null : TOKEN_MESSAGES.passagesHidden, sources: [] };
}

/**
 * A message as a caller who may not reach the library sees it (a token without files:read, decision 056): without the
 * passages of the user's files it carries (its citations, its search_files calls' results). Its text, and the names of
 * the files it attached, are the chat's own.
 */
export function withoutPassages<M extends Message>(message: M): M {
  return { ...message, citations: [], toolCalls: message.toolCalls.map(callWithoutPassages) };
}
