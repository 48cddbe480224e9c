import { type SQL, sql } from "drizzle-orm";
import { FOLDER_MESSAGES } from "../../../../shared/contracts/chat-folders.js";
import type { CourseSources, PlannedSource } from "../../../../shared/contracts/courses.js";
import { FILE_LIMIT_MESSAGES } from "../../../../shared/contracts/knowledge.js";
import { cutText } from "../../../../shared/cut-text.js";
import type { Db } from "../../../db/client.js";
import type { CourseSourceScope } from "../../../db/schema/index.js";
import { AppError } from "../../../lib/app-error.js";
import { type ShownBranchMessage, shownBranchesOf } from "../../chat/branch-tree.js";
import { CHAT_NOT_FOUND } from "../../chat/chat-service.js";
import { fileLabel, numberedSourcesBlock } from "../../knowledge/retrieval/numbered-sources.js";
import { clearsFloor } from "../../knowledge/retrieval/relevance-floor.js";
import { embedQueries, queryWords, type RetrievalDeps, retrievePassages, searchedQuery } from "../../knowledge/retrieval/retrieve.js";
import { excerptOf } from "../lesson-sources.js";

// What a course is made from (issue 31, decision 039): the owner's ready library files (chosen, or a collection's), or
// the branch shown of a chat or of each chat of a folder. Resolved on every use (the outline, the approve, each run
// and each regenerate), scoped to the owner in SQL, so a file deleted or another's id never reaches the model.

export const NOTHING_READY_FILES = "None of these files is ready to read yet. Wait until your library shows them as ready, then try again.";
export const NOTHING_IN_CHAT = "This chat has no messages to build a course from.";
export const NOTHING_IN_FOLDER = "The chats of this folder have no messages to build a course from.";

/** The outline is given at most this much material: passages found with the course's title, and a spread over the files. */
export const OUTLINE_SEARCH_TOKENS = 3_000;
export const OUTLINE_SPREAD_TOKENS = 3_000;
/** A chat's conversation given to the outline: at most this many tokens (about 4 characters each). */
export const OUTLINE_CHAT_TOKENS = 6_000;
/** Each lesson is written from at most this many passages and tokens of them. */
export const LESSON_SOURCE_TOKENS = 3_000;
export const LESSON_SOURCE_LIMIT = 6;
/** An outline's lesson lists at most this many planned passages. */
const PLANNED_LIMIT = 3;
/** A message given as a passage: at most this many characters of it. */
const MESSAGE_PASSAGE_CHARS = 2_000;

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** The material resolved: the ready files to search, or the messages of the branches shown. */
export type CourseMaterial =
  | { kind: "files"; userId: number; files: { id: number; name: string }[] }
  | { kind: "messages"; userId: number; messages: ShownBranchMessage[] };

/** A passage given to the model for a lesson, as it is stored on the lesson (`lesson_sources`). */
export type MaterialPassage =
  | { kind: "file"; chunkId: number; fileId: number; fileName: string; page: number | null; text: string }
  | { kind: "message"; chatId: number; chatTitle: string; messageId: number; role: string; text: string };

/** `sources` as stored (jsonb: only the keys given). */
export function toScope(sources: CourseSources): CourseSourceScope {
  return {
    ...(sources.fileIds?.length ? { fileIds: [...new Set(sources.fileIds)] } : {}),
    ...(sources.collectionId ? { collectionId: sources.collectionId } : {}),
    ...(sources.chatId ? { chatId: sources.chatId } : {}),
    ...(sources.folderId ? { folderId: sources.folderId } : {}),
  };
}

const idList = (ids: readonly number[]): SQL =>
  sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );

type FileRow = { id: number | string; name: string; status: string; kind: string };

/**
 * The owner's material for a scope: every id must be the owner's (a missing or another's is a 404 with the knowledge
 * and chat modules' words); a scope with nothing ready to read is a 400.
 */
export async function resolveCourseMaterial(db: Db, userId: number, scope: CourseSourceScope): Promise<CourseMaterial> {
  if (scope.chatId || scope.folderId) {
    const which = scope.chatId ? { chatId: scope.chatId } : { folderId: scope.folderId as number };
    const [owned, messages] = await Promise.all([
      scope.chatId
        ? db.execute(sql`select 1 from chats where id = ${scope.chatId}::int and user_id = ${userId}::int`)
        : db.execute(sql`select 1 from chat_folders where id = ${scope.folderId as number}::int and user_id = ${userId}::int`),
      shownBranchesOf(db, userId, which),
    ]);
    if (owned.rows.length === 0) throw new AppError("NOT_FOUND", scope.chatId ? CHAT_NOT_FOUND : FOLDER_MESSAGES.notFound);
    const said = messages.filter((m) => m.content.trim());
    if (said.length === 0) throw new AppError("BAD_REQUEST", scope.chatId ? NOTHING_IN_CHAT : NOTHING_IN_FOLDER);
    return { kind: "messages", userId, messages: said };
  }
  const fileIds = scope.fileIds ?? [];
  const parts: SQL[] = [];
  if (fileIds.length) parts.push(sql`id in (${idList(fileIds)})`);
  if (scope.collectionId) parts.push(sql`collection_id = ${scope.collectionId}::int`);
  if (parts.length === 0) throw new AppError("BAD_REQUEST", NOTHING_READY_FILES);
  const [files, collection] = await Promise.all([
    db.execute(sql`select id, name, status, kind from knowledge_files
      where user_id = ${userId}::int and (${sql.join(parts, sql` or `)}) order by id`),
    scope.collectionId
      ? db.execute(sql`select 1 from knowledge_collections where id = ${scope.collectionId}::int and user_id = ${userId}::int`)
      : Promise.resolve(null),
  ]);
  if (collection && collection.rows.length === 0) throw new AppError("NOT_FOUND", FILE_LIMIT_MESSAGES.collectionNotFound);
  const rows = files.rows as FileRow[];
  const found = new Set(rows.map((r) => Number(r.id)));
  if (fileIds.some((id) => !found.has(id))) throw new AppError("NOT_FOUND", FILE_LIMIT_MESSAGES.fileNotFound);
  const ready = rows.filter((r) => r.status === "ready" && r.kind !== "image").map((r) => ({ id: Number(r.id), name: r.name }));
  if (ready.length === 0) throw new AppError("BAD_REQUEST", NOTHING_READY_FILES);
  return { kind: "files", userId, files: ready };
}

const messageText = (m: ShownBranchMessage) => cutText(m.content, MESSAGE_PASSAGE_CHARS);

/** Words of a text as the ranking counts them (lower-cased letters and digits). */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The messages that best answer `query`, ranked in memory over the branch already read (no query per message):
 * Σ over the query's words of (1 + ln count) × ln(1 + N / messages holding it); messages sharing no word are left out,
 * and with `relevantOnly` those below the relevance floor's words (decision 067).
 */
export function rankMessages(
  messages: readonly ShownBranchMessage[],
  query: string,
  limit: number,
  budgetTokens: number,
  relevantOnly = false,
) {
  const asked = queryWords(query);
  const counted = messages.map((m) => {
    const counts = new Map<string, number>();
    for (const word of wordsOf(m.content)) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  });
  const holding = new Map(asked.map((w) => [w, counted.filter((c) => c.has(w)).length]));
  const scored = messages
    .map((message, i) => {
      let score = 0;
      for (const word of asked) {
        const count = counted[i]?.get(word) ?? 0;
        if (count > 0) score += (1 + Math.log(count)) * Math.log(1 + messages.length / (holding.get(word) ?? 1));
      }
      return { message, score };
    })
    .filter((s) => s.score > 0 && (!relevantOnly || clearsFloor({ words: asked, text: s.message.content })))
    .sort((a, b) => b.score - a.score || a.message.messageId - b.message.messageId);
  const picked: MaterialPassage[] = [];
  let budget = budgetTokens;
  for (const { message } of scored) {
    const text = messageText(message);
    if (picked.length >= limit || tokensOf(text) > budget) break;
    budget -= tokensOf(text);
    picked.push({
      kind: "message",
      chatId: message.chatId,
      chatTitle: message.chatTitle,
      messageId: message.messageId,
      role: message.role,
      text,
    });
  }
  return picked;
}

/**
 * Retrieval for queries known ahead (a run's or an outline's lessons): their vectors asked in one provider call, with
 * each one's baseline for the relevance floor, then each search given its own, so a lesson's retrieval is its two
 * queries only. Files only (messages are ranked in memory); when the provider fails, those searches are full text, as
 * a chat's are.
 */
export async function withQueriesEmbedded(deps: RetrievalDeps, material: CourseMaterial, queries: string[]): Promise<RetrievalDeps> {
  if (material.kind !== "files" || queries.length === 0 || !deps.vectors.available) return deps;
  const asked = [...new Set(queries.map(searchedQuery).filter(Boolean))];
  const found = await embedQueries(deps, asked, material.userId, { baselines: true }).catch(() => null);
  const byQuery = new Map(asked.map((q, i) => [q, i]));
  return {
    ...deps,
    embedQuery: async (query) => {
      const at = byQuery.get(query);
      const vector = at === undefined ? undefined : found?.vectors[at];
      if (!found || at === undefined || !vector) return null;
      const baseline = found.baselines?.[at];
      return baseline === undefined ? { key: found.key, vector } : { key: found.key, vector, baseline };
    },
  };
}

/**
 * The passages of the material that best answer `query`: the knowledge module's retrieval, or the messages ranked.
 * A lesson's (its sources, planned or written from) are only those that clear the relevance floor (decision 067); the
 * outline's material is not held to it (`relevantOnly: false`), since the outline is drawn from the whole material.
 */
export async function passagesFor(
  deps: RetrievalDeps,
  material: CourseMaterial,
  query: string,
  { limit = LESSON_SOURCE_LIMIT, budgetTokens = LESSON_SOURCE_TOKENS, relevantOnly = true } = {},
): Promise<MaterialPassage[]> {
  if (material.kind === "messages") return rankMessages(material.messages, query, limit, budgetTokens, relevantOnly);
  const found = await retrievePassages(deps, {
    userId: material.userId,
    query,
    fileIds: material.files.map((f) => f.id),
    budgetTokens,
    limit,
    relevantOnly,
  });
  return found.map((p) => ({ kind: "file", chunkId: p.chunkId, fileId: p.fileId, fileName: p.fileName, page: p.page, text: p.content }));
}

type SpreadRow = { id: number | string; file_id: number | string; page: number | string | null; content: string; tokens: number | string };

/** Pieces evenly spread over each file (its first, then every total/perFile-th), one query, within `budgetTokens`. */
async function spreadOver(db: Db, material: Extract<CourseMaterial, { kind: "files" }>, budgetTokens: number): Promise<MaterialPassage[]> {
  const names = new Map(material.files.map((f) => [f.id, f.name]));
  const perFile = Math.max(1, Math.min(8, Math.floor(budgetTokens / 400 / material.files.length)));
  const result = await db.execute(sql`
    select id, file_id, page, content, tokens from (
      select c.id, c.file_id, c.page, c.content, c.tokens, c.chunk_index,
        row_number() over (partition by c.file_id order by c.chunk_index) - 1 as i,
        count(*) over (partition by c.file_id) as total
      from knowledge_chunks c
      where c.user_id = ${material.userId}::int and c.file_id in (${idList([...names.keys()])})
    ) spread
    where mod(i * ${perFile}::int, total) < ${perFile}::int
    order by i, file_id`);
  const picked: MaterialPassage[] = [];
  let budget = budgetTokens;
  for (const row of result.rows as SpreadRow[]) {
    const tokens = Number(row.tokens);
    if (tokens > budget) continue;
    budget -= tokens;
    const fileId = Number(row.file_id);
    picked.push({
      kind: "file",
      chunkId: Number(row.id),
      fileId,
      fileName: names.get(fileId) ?? "",
      page: row.page === null ? null : Number(row.page),
      text: row.content,
    });
  }
  return picked;
}

/** A conversation within `budgetTokens`: every message when it fits, else messages evenly spread over it, in order. */
function conversationWithin(messages: readonly ShownBranchMessage[], budgetTokens: number): ShownBranchMessage[] {
  const total = messages.reduce((sum, m) => sum + tokensOf(messageText(m)), 0);
  if (total <= budgetTokens) return [...messages];
  const keep = Math.max(1, Math.floor((messages.length * budgetTokens) / total));
  const picked: ShownBranchMessage[] = [];
  let budget = budgetTokens;
  for (let k = 0; k < keep; k++) {
    const message = messages[Math.floor((k * messages.length) / keep)];
    if (!message || tokensOf(messageText(message)) > budget) continue;
    budget -= tokensOf(messageText(message));
    picked.push(message);
  }
  return picked;
}

/**
 * What the outline's prompt is given of the material: for files, passages found with `query` (the course's title and
 * hints) and a spread over the files; for chats, the conversation within a budget.
 */
export async function outlineMaterial(deps: RetrievalDeps, material: CourseMaterial, query: string): Promise<string> {
  if (material.kind === "messages") {
    const lines = conversationWithin(material.messages, OUTLINE_CHAT_TOKENS).map(
      (m) => `${m.role === "user" ? "User" : "Assistant"} (chat "${m.chatTitle.replaceAll("\n", " ")}"): ${messageText(m)}`,
    );
    return `The course is made from this conversation of the author's:\n\n${lines.join("\n\n")}`;
  }
  const [found, spread] = await Promise.all([
    passagesFor(deps, material, query, { limit: 12, budgetTokens: OUTLINE_SEARCH_TOKENS, relevantOnly: false }),
    spreadOver(deps.db, material, OUTLINE_SPREAD_TOKENS),
  ]);
  const seen = new Set<number>();
  const passages = [...found, ...spread].filter((p) => p.kind === "file" && !seen.has(p.chunkId) && seen.add(p.chunkId));
  const entries = passages.map((p) => `${labelOf(p)}\n${p.text}`);
  return `The course is made from the author's own files. Passages of them:\n\n${entries.join("\n\n")}`;
}

function labelOf(p: MaterialPassage): string {
  return p.kind === "file" ? fileLabel(p.fileName, p.page) : `${p.role} message in chat "${p.chatTitle.replaceAll("\n", " ")}"`;
}

/**
 * What a lesson written from material is told when no passage cleared the relevance floor (decision 067): to write it
 * without sources and to cite nothing, so no number, file or page is invented for it.
 */
export const NO_SOURCE_PROMPT =
  "No passage of the author's own material matched this lesson closely enough, so you are given no sources for it. " +
  "Write it from general knowledge and cite nothing: no [n] numbers, and no file, page, document or quotation presented as " +
  "coming from the author's material.";

/**
 * The block a lesson written from material gets in its system prompt: its passages numbered with the shared wording
 * (`numbered-sources.ts`), or `NO_SOURCE_PROMPT` when none cleared the floor.
 */
export function lessonSourcesBlock(passages: readonly MaterialPassage[]): string {
  if (passages.length === 0) return NO_SOURCE_PROMPT;
  return numberedSourcesBlock(
    "the author's own material",
    passages.map((p, i) => ({ n: i + 1, label: labelOf(p), text: p.text })),
  );
}

/** A passage as an outline's lesson lists it (display only). */
export function toPlannedSource(p: MaterialPassage): PlannedSource {
  return p.kind === "file"
    ? { kind: "file", fileId: p.fileId, fileName: p.fileName, ...(p.page !== null ? { page: p.page } : {}), excerpt: excerptOf(p.text) }
    : { kind: "message", chatId: p.chatId, messageId: p.messageId, excerpt: excerptOf(p.text) };
}

/** The planned sources of each proposed lesson: retrieved for it, its title and summary as the query. */
export async function plannedSourcesFor(
  deps: RetrievalDeps,
  material: CourseMaterial,
  lesson: { title: string; summary: string },
): Promise<PlannedSource[]> {
  const found = await passagesFor(deps, material, lessonQuery(lesson), { limit: PLANNED_LIMIT });
  return found.map(toPlannedSource);
}

/** The query a lesson's passages are retrieved with. */
export const lessonQuery = (lesson: { title: string; summary?: string | null }) => `${lesson.title} ${lesson.summary ?? ""}`.trim();
