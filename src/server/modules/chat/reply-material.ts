import { sql } from "drizzle-orm";
import { acceptsImages, cannotReadImagesMessage } from "../../../shared/model-catalog.js";
import type { ImagePart } from "../../ai/generate.js";
import type { Db } from "../../db/client.js";
import type { StoredAttachment, StoredCitation } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { listChatPlatforms } from "../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import type { ResolvedModel } from "../ai-platforms/resolve-platform.js";
import type { FileStore } from "../knowledge/file-store.js";
import type { RetrievedPassage } from "../knowledge/retrieval/passage.js";
import type { MessageRow } from "./chat-view.js";

// What a reply is given of the user's own material (issue 30, decision 037): the files attached to the messages of its
// branch and the collections of its chat and personality, as whole documents or searched passages, numbered [n] so
// the reply can cite them; the images of the message it answers, as image parts.

export const FILE_NOT_FOUND = "File not found";
/** A whole document goes to the model when it is at most this many tokens, and all of them together at most `WHOLE_TOTAL`. */
export const WHOLE_FILE_TOKENS = 6_000;
export const WHOLE_TOTAL_TOKENS = 12_000;
/** The passages searched for a reply: at most this many tokens of them. */
export const PASSAGE_BUDGET_TOKENS = 4_000;
const PASSAGE_LIMIT = 12;
const EXCERPT_CHARS = 300;

const stillReading = (name: string) => `${name} is still being read. Send again when it is ready.`;
const couldNotRead = (name: string, reason: string | null) =>
  `${name} could not be read: ${reason ?? "it failed"}. Remove it or retry it in your library.`;

/** `1,2,3` → an int[] parameter (an empty list: an empty array). */
const idArray = (ids: readonly number[]) => sql`string_to_array(${ids.join(",")}, ',')::int[]`;

type FileRow = {
  id: number;
  name: string;
  byte_size: number | string;
  mime_type: string;
  kind: string;
  sha256: string;
  status: string;
  error: string | null;
};

/**
 * The library files a message attaches, as stored on it: each the caller's (another's or a missing one is a 404), ready
 * (409 while it is being read; 400 with the reason when reading it failed). One query, scoped to the owner in SQL.
 */
export async function attachFiles(db: Db, userId: number, fileIds: readonly number[]): Promise<StoredAttachment[]> {
  if (fileIds.length === 0) return [];
  const result = await db.execute(sql`
    select id, name, byte_size, mime_type, kind, sha256, status, error from knowledge_files
    where user_id = ${userId} and id = any(${idArray(fileIds)})`);
  const rows = new Map((result.rows as FileRow[]).map((row) => [Number(row.id), row]));
  const attachments: StoredAttachment[] = [];
  for (const id of fileIds) {
    const row = rows.get(id);
    if (!row) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
    if (row.status === "failed") throw new AppError("BAD_REQUEST", couldNotRead(row.name, row.error));
    if (row.status !== "ready") throw new AppError("CONFLICT", stillReading(row.name));
    attachments.push({
      fileId: id,
      name: row.name,
      size: Number(row.byte_size),
      mimeType: row.mime_type,
      kind: row.kind,
      sha256: row.sha256,
    });
  }
  return attachments;
}

const isImage = (a: StoredAttachment) => a.fileId !== undefined && a.kind === "image" && !a.missing;

/**
 * 400 with the shared words (shared/model-catalog.ts) when images go to a model that cannot read them: asked before
 * anything is stored. The words name up to three models this user may use that can.
 */
export async function assertModelReadsImages(
  options: { db: Db; deps: PlatformDeps; who: Who },
  resolved: ResolvedModel,
  attachments: readonly StoredAttachment[],
): Promise<void> {
  if (!attachments.some(isImage) || acceptsImages(resolved.platform, resolved.modelId)) return;
  const platforms = await listChatPlatforms(options);
  const choices = platforms.flatMap((p) => p.models.filter((m) => p.imageModels.includes(m)));
  throw new AppError("BAD_REQUEST", cannotReadImagesMessage(resolved.modelId, choices));
}

/** A source given to a reply as [n]: a searched passage, or a whole document (page null). */
export interface GivenSource {
  n: number;
  chunkId: number;
  fileId: number;
  fileName: string;
  page: number | null;
  text: string;
}

/** What a reply is given besides its conversation: a system block of numbered sources, and the images of its message. */
export interface ReplyMaterial {
  sources: GivenSource[];
  /** Appended to the system prompt; undefined when there is nothing. */
  block: string | undefined;
  images: ImagePart[];
}

export const NO_MATERIAL: ReplyMaterial = { sources: [], block: undefined, images: [] };

type ChunkRow = {
  chunk_id: number;
  file_id: number;
  file_name: string;
  page: number | null;
  heading_path: string;
  content: string;
  tokens: number;
  score: number;
};

/** The words of a question as an OR query of the 'simple' configuration (the pieces' own), or null when it has none. */
function orQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 64);
  return words.length ? words.join(" | ") : null;
}

/**
 * The passages of the caller's files (`fileIds`) and collections that best answer `query`, within `budgetTokens`.
 * Full text over `knowledge_chunks`, scoped to the owner in SQL; the hybrid retrieval of the knowledge module takes its
 * place once it is merged (decision 037), behind this one function.
 */
export async function passagesForReply(
  db: Db,
  input: {
    userId: number;
    query: string;
    fileIds: readonly number[];
    collectionIds: readonly number[];
    budgetTokens: number;
    limit?: number;
  },
): Promise<RetrievedPassage[]> {
  const query = orQuery(input.query);
  if (!query || (input.fileIds.length === 0 && input.collectionIds.length === 0)) return [];
  const result = await db.execute(sql`
    select c.id as chunk_id, c.file_id, f.name as file_name, c.page, c.heading_path, c.content, c.tokens,
      ts_rank_cd(c.content_search, to_tsquery('simple', ${query})) as score
    from knowledge_chunks c join knowledge_files f on f.id = c.file_id and f.user_id = ${input.userId}
    where c.user_id = ${input.userId} and f.status = 'ready'
      and (c.file_id = any(${idArray(input.fileIds)}) or f.collection_id = any(${idArray(input.collectionIds)}))
      and c.content_search @@ to_tsquery('simple', ${query})
    order by score desc, c.id
    limit ${input.limit ?? PASSAGE_LIMIT}`);
  const passages: RetrievedPassage[] = [];
  let used = 0;
  for (const row of result.rows as ChunkRow[]) {
    if (used + row.tokens > input.budgetTokens && passages.length > 0) break;
    used += row.tokens;
    passages.push({
      chunkId: Number(row.chunk_id),
      fileId: Number(row.file_id),
      fileName: row.file_name,
      page: row.page === null ? null : Number(row.page),
      headingPath: row.heading_path,
      content: row.content,
      tokens: Number(row.tokens),
      score: Number(row.score),
    });
  }
  return passages;
}

type WholeRow = { file_id: number; first_chunk: number; tokens: number | string; text: string };

/** The files small enough to go whole, with their text (their pieces in order) and first piece; one query. */
async function wholeFiles(db: Db, userId: number, fileIds: readonly number[]): Promise<Map<number, { chunkId: number; text: string }>> {
  if (fileIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select c.file_id, min(c.id) as first_chunk, coalesce(max(f.tokens), sum(c.tokens)) as tokens,
      string_agg(c.content, ${"\n\n"} order by c.chunk_index) as text
    from knowledge_chunks c join knowledge_files f on f.id = c.file_id and f.user_id = ${userId} and f.status = 'ready'
    where c.user_id = ${userId} and c.file_id = any(${idArray(fileIds)})
    group by c.file_id
    having coalesce(max(f.tokens), sum(c.tokens)) <= ${WHOLE_FILE_TOKENS}`);
  const whole = new Map<number, { chunkId: number; text: string }>();
  let total = 0;
  for (const id of fileIds) {
    const row = (result.rows as WholeRow[]).find((r) => Number(r.file_id) === id);
    if (!row || total + Number(row.tokens) > WHOLE_TOTAL_TOKENS) continue;
    total += Number(row.tokens);
    whole.set(id, { chunkId: Number(row.first_chunk), text: row.text });
  }
  return whole;
}

/** The library files named by the messages of a branch (the newest message's first), without repeats. */
export function branchFiles(rows: readonly Pick<MessageRow, "role" | "attachments">[]): StoredAttachment[] {
  const seen = new Set<number>();
  const files: StoredAttachment[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row?.role !== "user") continue;
    for (const a of row.attachments) {
      if (a.fileId === undefined || a.missing || seen.has(a.fileId)) continue;
      seen.add(a.fileId);
      files.push(a);
    }
  }
  return files;
}

const SOURCES_RULES =
  "Sources from the user's own files follow, each numbered. When you use one, cite it inline by its number in square " +
  "brackets, like [1] or [2][3]. Cite only the numbers listed here; never invent a number or a source.";

function sourcesBlock(sources: readonly GivenSource[]): string {
  const entries = sources.map((s) => {
    const where = s.page === null ? "" : `, page ${s.page}`;
    return `[${s.n}] ${s.fileName.replaceAll("\n", " ")}${where}\n${s.text}`;
  });
  return `${SOURCES_RULES}\n\n${entries.join("\n\n")}`;
}

/**
 * What a reply is given of the user's material: the documents of its branch whole when small (`WHOLE_*`), the rest and
 * the collections searched with the user's message (`passagesForReply`); the images of the message it answers read from
 * the file store. Asked only when there is something (files on the branch, collections): a reply without them reads
 * nothing more (decision 022).
 */
export async function materialFor(
  options: { db: Db; fileStore: FileStore; userId: number },
  input: { query: string; files: readonly StoredAttachment[]; images: readonly StoredAttachment[]; collectionIds: readonly number[] },
): Promise<ReplyMaterial> {
  const { db, userId } = options;
  const documents = input.files.filter((a) => a.kind !== "image").map((a) => a.fileId as number);
  if (documents.length === 0 && input.collectionIds.length === 0 && input.images.length === 0) return NO_MATERIAL;
  const [whole, images] = await Promise.all([wholeFiles(db, userId, documents), readImages(options, input.images)]);
  const searched = documents.filter((id) => !whole.has(id));
  const passages = await passagesForReply(db, {
    userId,
    query: input.query,
    fileIds: searched,
    collectionIds: input.collectionIds,
    budgetTokens: PASSAGE_BUDGET_TOKENS,
  });
  const sources: GivenSource[] = [];
  for (const id of documents) {
    const doc = whole.get(id);
    const name = input.files.find((a) => a.fileId === id)?.name ?? "";
    if (doc) sources.push({ n: sources.length + 1, chunkId: doc.chunkId, fileId: id, fileName: name, page: null, text: doc.text });
  }
  for (const p of passages) {
    sources.push({ n: sources.length + 1, chunkId: p.chunkId, fileId: p.fileId, fileName: p.fileName, page: p.page, text: p.content });
  }
  return { sources, block: sources.length ? sourcesBlock(sources) : undefined, images };
}

type StoredFileRow = { id: number; storage: string; storage_key: string | null; mime_type: string };

async function readImages(
  options: { db: Db; fileStore: FileStore; userId: number },
  images: readonly StoredAttachment[],
): Promise<ImagePart[]> {
  const ids = images.map((a) => a.fileId as number);
  if (ids.length === 0) return [];
  const result = await options.db.execute(sql`
    select id, storage, storage_key, mime_type from knowledge_files
    where user_id = ${options.userId} and id = any(${idArray(ids)}) and kind = 'image'`);
  const rows = result.rows as StoredFileRow[];
  return Promise.all(
    rows.map(async (row) => ({
      data: await options.fileStore.read({ id: Number(row.id), storage: row.storage, storageKey: row.storage_key }),
      mediaType: row.mime_type,
    })),
  );
}

/** The images a message attaches (still in the library). */
export const imagesOf = (attachments: readonly StoredAttachment[]) => attachments.filter(isImage);

/**
 * The citations of a reply's text: each [n] that names a source given to THIS reply, once, in the order first cited;
 * a number the model invented is dropped.
 */
export function citationsOf(text: string, sources: readonly GivenSource[]): StoredCitation[] {
  if (sources.length === 0) return [];
  const cited: StoredCitation[] = [];
  for (const match of text.matchAll(/\[(\d{1,4})\]/g)) {
    const n = Number(match[1]);
    const source = sources.find((s) => s.n === n);
    if (!source || cited.some((c) => c.n === n)) continue;
    const excerpt = source.text.length > EXCERPT_CHARS ? `${source.text.slice(0, EXCERPT_CHARS).trimEnd()}…` : source.text;
    cited.push({ n, fileId: source.fileId, fileName: source.fileName, page: source.page, excerpt, chunkId: source.chunkId });
  }
  return cited.sort((a, b) => a.n - b.n);
}

const NEIGHBOUR_CHARS = 600;
const CITATION_NOT_FOUND = "Citation not found";

type CitedRow = { citation: StoredCitation | null; heading_path: string | null; before: string | null; after: string | null };

const trimTail = (text: string) => (text.length > NEIGHBOUR_CHARS ? `…${text.slice(-NEIGHBOUR_CHARS).trimStart()}` : text);
const trimHead = (text: string) => (text.length > NEIGHBOUR_CHARS ? `${text.slice(0, NEIGHBOUR_CHARS).trimEnd()}…` : text);

/**
 * GET /api/chats/{id}/messages/{messageId}/citations/{n}: a reply's citation with the text around it (the pieces before
 * and after it in its file), for the side panel. The chat's owner only (else 404, as a citation the reply does not
 * have); a file deleted since keeps the stored excerpt, with nothing around it. One query.
 */
export async function readCitation(options: { db: Db; who: Who; chatId: number; messageId: number; n: number }) {
  const { db, who, chatId, messageId, n } = options;
  const result = await db.execute(sql`
    with cited as (
      select c.value as citation from messages m cross join lateral jsonb_array_elements(m.citations) c
      where m.id = ${messageId} and m.chat_id = ${chatId} and m.user_id = ${who.id} and (c.value->>'n')::int = ${n}
      limit 1
    ), piece as (
      select k.file_id, k.chunk_index, k.heading_path from knowledge_chunks k, cited
      where k.id = (cited.citation->>'chunkId')::int and k.user_id = ${who.id}
    )
    select cited.citation, piece.heading_path,
      (select k.content from knowledge_chunks k where k.file_id = piece.file_id and k.chunk_index = piece.chunk_index - 1) as before,
      (select k.content from knowledge_chunks k where k.file_id = piece.file_id and k.chunk_index = piece.chunk_index + 1) as after
    from cited left join piece on true`);
  const row = result.rows[0] as CitedRow | undefined;
  if (!row?.citation) throw new AppError("NOT_FOUND", CITATION_NOT_FOUND);
  const c = typeof row.citation === "string" ? (JSON.parse(row.citation) as StoredCitation) : row.citation;
  return {
    n: Number(c.n),
    fileId: Number(c.fileId),
    fileName: c.fileName,
    page: c.page === null ? null : Number(c.page),
    excerpt: c.excerpt,
    before: trimTail(row.before ?? ""),
    after: trimHead(row.after ?? ""),
    headingPath: row.heading_path ?? "",
  };
}
