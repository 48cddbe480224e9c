import { sql } from "drizzle-orm";
import { acceptsImages, cannotReadImagesMessage } from "../../../shared/model-catalog.js";
import { citedIn } from "../../../shared/numbered-refs.js";
import type { ImagePart } from "../../ai/generate.js";
import type { Db } from "../../db/client.js";
import type { StoredAttachment, StoredCitation, StoredToolCall } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { assertReadsLibrary } from "../../lib/library-access.js";
import type { Who } from "../../lib/who.js";
import { listChatPlatforms } from "../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import type { ResolvedModel } from "../ai-platforms/resolve-platform.js";
import type { FileStore } from "../knowledge/file-store.js";
import { excerptOf, fileLabel, numberedSourcesBlock } from "../knowledge/retrieval/numbered-sources.js";
import type { RetrievedPassage } from "../knowledge/retrieval/passage.js";
import { passageInContext } from "../knowledge/retrieval/passage-context.js";
import { type RetrievalDeps, readWholeFile, retrievePassages } from "../knowledge/retrieval/retrieve.js";
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
/**
 * Images a reply sends are read whole into memory and sent as base64 (issue 30 review): at most 20 MB each (OpenAI's own
 * limit per image) and 50 MB in all, so parallel replies cannot hold gigabytes.
 */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGES_TOTAL_MAX_BYTES = 50 * 1024 * 1024;
const imageTooLarge = (name: string) => `${name} is too large to send to a model: an image can be at most 20 MB.`;
const IMAGES_TOO_LARGE = "These images are too large to send together: at most 50 MB of images per message.";

const stillReading = (name: string) => `${name} is still being read. Send again when it is ready.`;
/** A failed file on a message: retried in the library, or (it cannot be read, decision 068) replaced by a readable copy. */
const couldNotRead = (name: string, reason: string | null, permanent: boolean) =>
  `${name} could not be read: ${reason ?? "it failed"}. ${permanent ? "Remove it and attach a readable copy." : "Remove it or retry it in your library."}`;

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
  permanent_failure: boolean;
};

/**
 * The library files a message attaches, as stored on it: each the caller's (another's or a missing one is a 404), ready
 * (409 while it is being read; 400 with the reason when reading it failed). One query, scoped to the owner in SQL.
 */
export async function attachFiles(db: Db, who: Who, fileIds: readonly number[]): Promise<StoredAttachment[]> {
  if (fileIds.length === 0) return [];
  // Before the files are looked up: a token without files:read learns nothing of them, not even that they exist.
  assertReadsLibrary(who);
  const userId = who.id;
  const result = await db.execute(sql`
    select id, name, byte_size, mime_type, kind, sha256, status, error, permanent_failure from knowledge_files
    where user_id = ${userId} and id = any(${idArray(fileIds)})`);
  const rows = new Map((result.rows as FileRow[]).map((row) => [Number(row.id), row]));
  const attachments: StoredAttachment[] = [];
  for (const id of fileIds) {
    const row = rows.get(id);
    if (!row) throw new AppError("NOT_FOUND", FILE_NOT_FOUND);
    if (row.status === "failed") throw new AppError("BAD_REQUEST", couldNotRead(row.name, row.error, row.permanent_failure));
    if (row.status !== "ready") throw new AppError("CONFLICT", stillReading(row.name));
    if (row.kind === "image" && Number(row.byte_size) > IMAGE_MAX_BYTES) throw new AppError("BAD_REQUEST", imageTooLarge(row.name));
    attachments.push({
      fileId: id,
      name: row.name,
      size: Number(row.byte_size),
      mimeType: row.mime_type,
      kind: row.kind,
      sha256: row.sha256,
    });
  }
  const imageBytes = attachments.reduce((sum, a) => sum + (a.kind === "image" ? a.size : 0), 0);
  if (imageBytes > IMAGES_TOTAL_MAX_BYTES) throw new AppError("BAD_REQUEST", IMAGES_TOO_LARGE);
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
  await assertReadsImagesSent(options, resolved, attachments.some(isImage));
}

/** The same check for images sent some other way (the OpenAI-compatible endpoint's data: URLs, decision 051). */
export async function assertReadsImagesSent(
  options: { db: Db; deps: PlatformDeps; who: Who },
  resolved: ResolvedModel,
  sent: boolean,
): Promise<void> {
  if (!sent || acceptsImages(resolved.platform, resolved.modelId)) return;
  const platforms = await listChatPlatforms(options);
  const choices = platforms.flatMap((p) => p.models.filter((m) => p.imageModels.includes(m)));
  throw new AppError("BAD_REQUEST", cannotReadImagesMessage(resolved.modelId, choices));
}

/** A source given to a reply as [n]: a searched passage, or a page (or section) of a whole document. */
export interface GivenSource {
  n: number;
  chunkId: number;
  /** A whole document's part: its last piece (its pieces `chunkId`..this, given without their overlap). */
  throughChunkId?: number;
  fileId: number;
  fileName: string;
  page: number | null;
  /** A whole document's part without pages: its heading path, named in its label. */
  section?: string;
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

/**
 * The passages of the caller's files (`fileIds`) and collections that best answer `query`, within `budgetTokens`: the
 * knowledge module's hybrid retrieval (full text and vectors, decision 036), scoped to the owner in SQL. Nothing is
 * asked when there is nothing to search (an empty scope would mean "the whole library" there).
 */
export async function passagesForReply(
  deps: RetrievalDeps,
  input: { userId: number; query: string; fileIds: number[]; collectionIds: number[]; budgetTokens: number; limit?: number },
): Promise<RetrievedPassage[]> {
  if (input.fileIds.length === 0 && input.collectionIds.length === 0) return [];
  return retrievePassages(deps, { ...input, limit: input.limit ?? PASSAGE_LIMIT });
}

type SizeRow = { id: number; tokens: number | string | null };

/**
 * The files small enough to go whole (`WHOLE_*`, by the tokens their reading counted), with their pieces in order, each
 * without the words it repeats from the one before (`readWholeFile`).
 */
async function wholeFiles(db: Db, userId: number, fileIds: readonly number[]): Promise<Map<number, RetrievedPassage[]>> {
  if (fileIds.length === 0) return new Map();
  const sizes = await db.execute(sql`
    select f.id, coalesce(f.tokens, (select sum(c.tokens) from knowledge_chunks c where c.file_id = f.id)) as tokens
    from knowledge_files f where f.user_id = ${userId} and f.status = 'ready' and f.id = any(${idArray(fileIds)})`);
  const picked: number[] = [];
  let total = 0;
  for (const id of fileIds) {
    const row = (sizes.rows as SizeRow[]).find((r) => Number(r.id) === id);
    const tokens = Number(row?.tokens ?? Number.POSITIVE_INFINITY);
    if (!row || tokens > WHOLE_FILE_TOKENS || total + tokens > WHOLE_TOTAL_TOKENS) continue;
    total += tokens;
    picked.push(id);
  }
  const read = await Promise.all(picked.map((id) => readWholeFile({ db }, userId, id)));
  const whole = new Map<number, RetrievedPassage[]>();
  picked.forEach((id, i) => {
    const pieces = read[i] ?? [];
    if (pieces.length > 0) whole.set(id, pieces);
  });
  return whole;
}

/** A part of a whole document given as one source: a page of it, or (without pages) a section under one heading path. */
interface WholePart {
  pieces: RetrievedPassage[];
  page: number | null;
  headingPath: string;
}

/**
 * A whole document as its sources (the review "A document sent whole loses its pages"): its pieces, in order, cut where
 * the page changes (a PDF) or, without pages, where the heading path does, so a citation names its page (or section),
 * and the citation panel shows the part the model read.
 */
export function wholeParts(pieces: readonly RetrievedPassage[]): WholePart[] {
  const parts: WholePart[] = [];
  for (const piece of pieces) {
    const last = parts.at(-1);
    const same = last && (piece.page !== null || last.page !== null ? last.page === piece.page : last.headingPath === piece.headingPath);
    if (last && same) last.pieces.push(piece);
    else parts.push({ pieces: [piece], page: piece.page, headingPath: piece.headingPath });
  }
  return parts;
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

export function sourcesBlock(sources: readonly GivenSource[]): string {
  return numberedSourcesBlock(
    "the user's own files",
    sources.map((s) => ({ n: s.n, label: `${fileLabel(s.fileName, s.page)}${s.section ? `, section ${s.section}` : ""}`, text: s.text })),
  );
}

/**
 * What a reply is given of the user's material: the documents of its branch whole when small (`WHOLE_*`), the rest and
 * the collections searched with the user's message (`passagesForReply`); the images of the message it answers read from
 * the file store. Asked only when there is something (files on the branch, collections): a reply without them reads
 * nothing more (decision 022). A reply a token started reaches the library only with files:read (else 403 before
 * anything is stored: decision 056), whether the files are the message's own, earlier ones of the branch or the chat's
 * and its personality's collections.
 */
export async function materialFor(
  options: { db: Db; fileStore: FileStore; who: Who; retrieval: RetrievalDeps },
  input: { query: string; files: readonly StoredAttachment[]; images: readonly StoredAttachment[]; collectionIds: number[] },
): Promise<ReplyMaterial> {
  const { db, who } = options;
  const userId = who.id;
  const documents = input.files.filter((a) => a.kind !== "image").map((a) => a.fileId as number);
  if (documents.length === 0 && input.collectionIds.length === 0 && input.images.length === 0) return NO_MATERIAL;
  assertReadsLibrary(who);
  const [whole, images] = await Promise.all([wholeFiles(db, userId, documents), readImages({ ...options, userId }, input.images)]);
  const searched = documents.filter((id) => !whole.has(id));
  const passages = await passagesForReply(options.retrieval, {
    userId,
    query: input.query,
    fileIds: searched,
    collectionIds: input.collectionIds,
    budgetTokens: PASSAGE_BUDGET_TOKENS,
  });
  const sources: GivenSource[] = [];
  for (const id of documents) {
    const name = input.files.find((a) => a.fileId === id)?.name ?? "";
    for (const part of wholeParts(whole.get(id) ?? [])) {
      const first = part.pieces[0] as RetrievedPassage;
      sources.push({
        n: sources.length + 1,
        chunkId: first.chunkId,
        throughChunkId: (part.pieces.at(-1) ?? first).chunkId,
        fileId: id,
        fileName: name,
        page: part.page,
        section: part.page === null ? part.headingPath : "",
        text: part.pieces.map((p) => p.content).join("\n\n"),
      });
    }
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

/** A source given to a reply, as its citation keeps it. */
const asCitation = (s: GivenSource): StoredCitation => ({
  n: s.n,
  fileId: s.fileId,
  fileName: s.fileName,
  page: s.page,
  excerpt: excerptOf(s.text),
  chunkId: s.chunkId,
  ...(s.throughChunkId === undefined ? {} : { throughChunkId: s.throughChunkId }),
});

/**
 * One numbering per reply (decision 055): its own sources are [1]..[n] (decision 037); each search_files call numbers
 * its passages from the next free number, in the order the calls run, so no two sources of a reply share a number.
 */
export function nextSourceNumber(given: readonly Pick<GivenSource, "n">[], calls: readonly Pick<StoredToolCall, "sources">[]): number {
  let most = 0;
  for (const s of given) most = Math.max(most, s.n);
  for (const call of calls) for (const s of call.sources ?? []) most = Math.max(most, s.n);
  return most + 1;
}

/**
 * The citations of a reply's text: each [n] that names a source given to THIS reply (its own sources, and the
 * passages its search_files calls gave), once, by number; a number the model invented is dropped.
 */
export function citationsOf(text: string, sources: readonly GivenSource[], calls: readonly StoredToolCall[] = []): StoredCitation[] {
  const fromCalls = calls.flatMap((call) => call.sources ?? []);
  return citedIn(text, [...sources.map(asCitation), ...fromCalls]);
}

const CITATION_NOT_FOUND = "Citation not found";

type CitedRow = {
  citation: StoredCitation | null;
  heading_path: string | null;
  span: number | string | null;
  pieces: PieceRow[] | string | null;
};
type PieceRow = { i: number; content: string; page: number | null };

/**
 * GET /api/chats/{id}/messages/{messageId}/citations/{n}: a reply's citation as the model was given it, whole, with the
 * text around it (the pieces before and after it in its file, without the words it repeats from them), for the side
 * panel. [n] is one of the reply's stored citations or, while it is still being written, a passage one of its
 * search_files calls gave (decision 055). The chat's owner only (else 404, as a citation the reply does not have), and
 * pieces of the owner's files only; a file deleted since keeps the stored excerpt, with nothing around it. One query.
 */
export async function readCitation(options: { db: Db; who: Who; chatId: number; messageId: number; n: number }) {
  const { db, who, chatId, messageId, n } = options;
  assertReadsLibrary(who);
  const result = await db.execute(sql`
    with cited as (
      select c.value as citation from messages m
      cross join lateral jsonb_array_elements(m.citations || coalesce((
        select jsonb_agg(s.value order by t.i, s.i) from jsonb_array_elements(m.tool_calls) with ordinality as t(call, i)
        cross join lateral jsonb_array_elements(coalesce(t.call->'sources', '[]'::jsonb)) with ordinality as s(value, i)
      ), '[]'::jsonb)) with ordinality as c(value, i)
      where m.id = ${messageId} and m.chat_id = ${chatId} and m.user_id = ${who.id} and (c.value->>'n')::int = ${n}
      order by c.i
      limit 1
    ), first as (
      select k.file_id, k.chunk_index, k.heading_path from knowledge_chunks k, cited
      where k.id = (cited.citation->>'chunkId')::int and k.user_id = ${who.id}
    ), last as (
      select coalesce((
        select k.chunk_index from knowledge_chunks k, cited, first
        where k.id = (cited.citation->>'throughChunkId')::int and k.user_id = ${who.id} and k.file_id = first.file_id
      ), first.chunk_index) as chunk_index from first
    )
    select cited.citation, first.heading_path, (select last.chunk_index - first.chunk_index from last) as span,
      (select jsonb_agg(jsonb_build_object('i', k.chunk_index - first.chunk_index, 'content', k.content, 'page', k.page)
        order by k.chunk_index)
        from knowledge_chunks k, last
        where k.file_id = first.file_id and k.chunk_index between first.chunk_index - 1 and last.chunk_index + 1) as pieces
    from cited left join first on true`);
  const row = result.rows[0] as CitedRow | undefined;
  if (!row?.citation) throw new AppError("NOT_FOUND", CITATION_NOT_FOUND);
  const c = typeof row.citation === "string" ? (JSON.parse(row.citation) as StoredCitation) : row.citation;
  const page = c.page === null ? null : Number(c.page);
  const pieces = (typeof row.pieces === "string" ? (JSON.parse(row.pieces) as PieceRow[]) : (row.pieces ?? [])).map((p) => ({
    ...p,
    i: Number(p.i),
    page: p.page === null ? null : Number(p.page),
  }));
  const span = Number(row.span ?? 0);
  const own = pieces.filter((p) => p.i >= 0 && p.i <= span);
  const shown =
    own.length > 0
      ? passageInContext({
          pieces: own,
          joined: c.throughChunkId !== undefined,
          before: pieces.find((p) => p.i === -1) ?? null,
          after: pieces.find((p) => p.i === span + 1) ?? null,
        })
      : null;
  return {
    n: Number(c.n),
    fileId: Number(c.fileId),
    fileName: c.fileName,
    page,
    excerpt: c.excerpt,
    passage: shown?.passage ?? c.excerpt,
    before: shown?.before ?? "",
    after: shown?.after ?? "",
    beforePage: shown?.beforePage ?? null,
    afterPage: shown?.afterPage ?? null,
    headingPath: row.heading_path ?? "",
  };
}
