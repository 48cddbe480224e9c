import { createHash } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import {
  FILE_LIMIT_MESSAGES,
  FILE_NAME_MAX,
  type FilePurpose,
  type FilesQuery,
  type KnowledgeFile,
} from "../../../shared/contracts/knowledge.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { knowledgeCollections, knowledgeFiles } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { type FileStore, reserveFileId, type StoredFileRef, sealParts } from "./file-store.js";
import { wakeIngestion } from "./ingestion/wake.js";
import { detectFile, EMPTY_FILE_MESSAGE } from "./reading/file-kind.js";
import { assertRoomFor, lockLibrary } from "./storage-limits.js";
import { unsentDeadline } from "./unsent-files.js";

type FileRow = typeof knowledgeFiles.$inferSelect;

export function toKnowledgeFile(row: FileRow): KnowledgeFile {
  return {
    id: row.id,
    name: row.name,
    size: row.byteSize,
    type: row.mimeType,
    kind: row.kind as KnowledgeFile["kind"],
    status: row.status,
    stage: row.status === "processing" && (row.stage === "reading" || row.stage === "indexing") ? row.stage : null,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
    error: row.status === "failed" ? row.error : null,
    retryable: row.status === "failed" && !row.permanentFailure,
    collectionId: row.collectionId,
    unsentUntil: row.unsentUntil?.toISOString() ?? null,
    pages: row.pages,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError("NOT_FOUND", FILE_LIMIT_MESSAGES.fileNotFound);
const collectionNotFound = () => new AppError("NOT_FOUND", FILE_LIMIT_MESSAGES.collectionNotFound);

/** Someone else's collection and a missing one look the same (404). In a transaction, locked against its delete. */
export async function assertOwnCollection(db: DbOrTx, userId: number, collectionId: number, lock = false): Promise<void> {
  const query = db
    .select({ id: knowledgeCollections.id })
    .from(knowledgeCollections)
    .where(and(eq(knowledgeCollections.id, collectionId), eq(knowledgeCollections.userId, userId)));
  const [row] = lock ? await query.for("key share") : await query;
  if (!row) throw collectionNotFound();
}

/** A file name as shown: no control characters, no path, at most FILE_NAME_MAX characters (the extension kept). */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "").trim();
  if (!clean) return "file";
  if (clean.length <= FILE_NAME_MAX) return clean;
  const dot = clean.lastIndexOf(".");
  const extension = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : "";
  return clean.slice(0, FILE_NAME_MAX - extension.length) + extension;
}

/**
 * POST /api/files: typed by its bytes (never its name), checked against the plan, its bytes stored first under the id
 * its row will take (the database's parts a short statement each, or the object store's object: decision 074), then
 * the row stored in a short transaction under the user's library lock, where the plan is checked again and the parts
 * are checked whole; the ingestion workers are then woken. Until that transaction commits, nothing shows the file; if
 * it fails, the bytes are removed (and what a crash leaves, the housekeeping sweep removes).
 */
export async function uploadFile(options: {
  db: Db;
  who: Who;
  fileStore: FileStore;
  name: string;
  bytes: Uint8Array;
  /** The bytes' SHA-256 in hex, when the reader counted it as they came in. */
  sha256?: string;
  collectionId: number | null;
  /** `message`: attached to a message not sent yet, kept until the message is sent (decision 068). */
  purpose?: FilePurpose;
  log?: (message: string, error: unknown) => void;
}): Promise<KnowledgeFile> {
  const { db, who, fileStore, bytes, collectionId } = options;
  const name = cleanFileName(options.name);
  const detected = detectFile(bytes, name);
  if ("error" in detected)
    throw new AppError(detected.error === EMPTY_FILE_MESSAGE ? "BAD_REQUEST" : "UNSUPPORTED_MEDIA_TYPE", detected.error);
  const sha256 = options.sha256 ?? createHash("sha256").update(bytes).digest("hex");
  // Refused before a byte is written when it cannot fit now; checked again, under the lock, when the row is stored.
  if (collectionId !== null) await assertOwnCollection(db, who.id, collectionId);
  await assertRoomFor(db, who.id, bytes.byteLength);
  const id = await reserveFileId(db);
  let stored: StoredFileRef = { id, storage: fileStore.kind, storageKey: null };
  try {
    const place = await fileStore.put(db, { id, userId: who.id }, bytes);
    stored = { id, ...place };
    const row = await db.transaction(async (tx) => {
      await lockLibrary(tx, who.id);
      if (collectionId !== null) await assertOwnCollection(tx, who.id, collectionId, true);
      await assertRoomFor(tx, who.id, bytes.byteLength);
      if (place.storage === "db") await sealParts(tx, { id, byteSize: bytes.byteLength });
      const [inserted] = await tx
        .insert(knowledgeFiles)
        .values({
          id,
          userId: who.id,
          collectionId,
          name,
          mimeType: detected.mime,
          kind: detected.kind,
          byteSize: bytes.byteLength,
          sha256,
          storage: place.storage,
          storageKey: place.storageKey,
          status: "queued",
          unsentUntil: options.purpose === "message" ? unsentDeadline() : null,
        })
        .returning();
      if (!inserted) throw new Error("the file's row was not stored");
      return inserted;
    });
    wakeIngestion();
    return toKnowledgeFile(row);
  } catch (error) {
    await fileStore.remove([stored]).catch((removeError) => options.log?.("removing an upload's orphaned bytes failed", removeError));
    throw error;
  }
}

/** GET /api/files: the caller's files, newest first, paged by id; a collection that is not theirs is a 404. */
export async function listFiles(options: {
  db: Db;
  who: Who;
  query: FilesQuery;
}): Promise<{ items: KnowledgeFile[]; nextCursor: string | null }> {
  const { db, who, query } = options;
  if (query.collectionId !== undefined) await assertOwnCollection(db, who.id, query.collectionId);
  const cursor = query.cursor !== undefined ? Number(query.cursor) : null;
  const rows = await db
    .select()
    .from(knowledgeFiles)
    .where(
      and(
        eq(knowledgeFiles.userId, who.id),
        query.collectionId !== undefined ? eq(knowledgeFiles.collectionId, query.collectionId) : undefined,
        cursor !== null ? lt(knowledgeFiles.id, cursor) : undefined,
      ),
    )
    .orderBy(desc(knowledgeFiles.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toKnowledgeFile), nextCursor: rows.length > query.limit && last ? String(last.id) : null };
}

async function ownFileRow(db: DbOrTx, userId: number, id: number): Promise<FileRow> {
  const [row] = await db
    .select()
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.userId, userId)));
  if (!row) throw notFound();
  return row;
}

export async function getFile(options: { db: Db; who: Who; id: number }): Promise<KnowledgeFile> {
  return toKnowledgeFile(await ownFileRow(options.db, options.who.id, options.id));
}

/**
 * PATCH /api/files/:id: rename, and/or move into one of the caller's collections (or out: null). A file attached to a
 * message not sent yet that is moved into a collection is kept: its owner chose a place for it (decision 068).
 */
export async function updateFile(options: {
  db: Db;
  who: Who;
  id: number;
  input: { name?: string; collectionId?: number | null };
}): Promise<KnowledgeFile> {
  const { db, who, id, input } = options;
  const row = await db.transaction(async (tx) => {
    if (input.collectionId !== undefined && input.collectionId !== null) await assertOwnCollection(tx, who.id, input.collectionId, true);
    const [updated] = await tx
      .update(knowledgeFiles)
      .set({
        ...(input.name !== undefined ? { name: cleanFileName(input.name) } : {}),
        ...(input.collectionId !== undefined ? { collectionId: input.collectionId } : {}),
        ...(input.collectionId !== undefined && input.collectionId !== null ? { unsentUntil: null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.userId, who.id)))
      .returning();
    return updated;
  });
  if (!row) throw notFound();
  return toKnowledgeFile(row);
}

const storedRef = { id: knowledgeFiles.id, storage: knowledgeFiles.storage, storageKey: knowledgeFiles.storageKey };

/** DELETE /api/files/:id: the row (its bytes in the database, pieces and vectors go with it), then the stored object. */
export async function deleteFile(options: {
  db: Db;
  who: Who;
  fileStore: FileStore;
  id: number;
  log?: (message: string, error: unknown) => void;
}): Promise<void> {
  const { db, who, id } = options;
  const removed = await db
    .delete(knowledgeFiles)
    .where(and(eq(knowledgeFiles.id, id), eq(knowledgeFiles.userId, who.id)))
    .returning(storedRef);
  if (removed.length === 0) throw notFound();
  await removeStored(options.fileStore, removed, options.log);
}

/** The objects of deleted rows; a failure is logged (the row is gone, so the object is only space). */
export async function removeStored(fileStore: FileStore, refs: StoredFileRef[], log?: (message: string, error: unknown) => void) {
  if (refs.length === 0) return;
  await fileStore.remove(refs).catch((error) => log?.("removing deleted files' bytes failed", error));
}

/**
 * GET /api/files/:id/content: the row (for its type and size) and its bytes, read a slice at a time while they are
 * sent (decision 070). Ownership is checked here, before anything is read or sent.
 */
export async function readFileContent(options: { db: Db; who: Who; fileStore: FileStore; id: number }) {
  const row = await ownFileRow(options.db, options.who.id, options.id);
  const body = options.fileStore.stream({ id: row.id, storage: row.storage, storageKey: row.storageKey });
  return { name: row.name, mimeType: row.mimeType, kind: row.kind, size: row.byteSize, body };
}

/**
 * POST /api/files/:id/retry: a failed file is read again from the start; any other state is a 409, and a file that
 * cannot be read (its failure permanent, decision 068) a 422: the same bytes would fail the same way.
 */
export async function retryFile(options: { db: Db; who: Who; id: number }): Promise<KnowledgeFile> {
  const { db, who, id } = options;
  const [row] = await db
    .update(knowledgeFiles)
    .set({
      status: "queued",
      stage: null,
      attempts: 0,
      error: null,
      progressDone: 0,
      progressTotal: 0,
      claimedBy: null,
      heartbeatAt: null,
      nextAttemptAt: sql`now()`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(knowledgeFiles.id, id),
        eq(knowledgeFiles.userId, who.id),
        eq(knowledgeFiles.status, "failed"),
        eq(knowledgeFiles.permanentFailure, false),
      ),
    )
    .returning();
  if (!row) {
    const found = await ownFileRow(db, who.id, id);
    if (found.status === "failed" && found.permanentFailure) throw new AppError("UNPROCESSABLE", FILE_LIMIT_MESSAGES.notRetryable);
    throw new AppError("CONFLICT", FILE_LIMIT_MESSAGES.notFailed);
  }
  wakeIngestion();
  return toKnowledgeFile(row);
}
