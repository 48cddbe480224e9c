import { and, eq, isNotNull, sql } from "drizzle-orm";
import { type Collection, FILE_LIMIT_MESSAGES, MAX_COLLECTIONS_PER_USER } from "../../../shared/contracts/knowledge.js";
import type { Db, DbOrTx } from "../../db/client.js";
import { knowledgeCollections, knowledgeFiles } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { FileStore } from "./file-store.js";
import { removeStored } from "./files-service.js";
import { lockLibrary } from "./storage-limits.js";

type CollectionRow = typeof knowledgeCollections.$inferSelect;

function toCollection(row: CollectionRow, fileCount: number, size: number): Collection {
  return {
    id: row.id,
    name: row.name,
    fileCount,
    size,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError("NOT_FOUND", FILE_LIMIT_MESSAGES.collectionNotFound);

/**
 * The caller's collections (or one of them) with their file count and bytes: one query, the counts taken in one
 * pass over the user's filed files grouped by collection, never one count per collection.
 */
async function collectionsWithCounts(db: DbOrTx, userId: number, onlyId?: number): Promise<Collection[]> {
  const counts = db
    .select({
      collectionId: knowledgeFiles.collectionId,
      n: sql<number>`count(*)::int`.as("n"),
      bytes: sql<string>`coalesce(sum(${knowledgeFiles.byteSize}), 0)::bigint`.as("bytes"),
    })
    .from(knowledgeFiles)
    .where(
      and(
        eq(knowledgeFiles.userId, userId),
        onlyId !== undefined ? eq(knowledgeFiles.collectionId, onlyId) : isNotNull(knowledgeFiles.collectionId),
      ),
    )
    .groupBy(knowledgeFiles.collectionId)
    .as("counts");
  const rows = await db
    .select({ collection: knowledgeCollections, n: counts.n, bytes: counts.bytes })
    .from(knowledgeCollections)
    .leftJoin(counts, eq(counts.collectionId, knowledgeCollections.id))
    .where(and(eq(knowledgeCollections.userId, userId), onlyId !== undefined ? eq(knowledgeCollections.id, onlyId) : undefined))
    .orderBy(sql`lower(${knowledgeCollections.name})`, knowledgeCollections.id)
    .limit(MAX_COLLECTIONS_PER_USER);
  return rows.map((row) => toCollection(row.collection, Number(row.n ?? 0), Number(row.bytes ?? 0)));
}

export async function listCollections(options: { db: Db; who: Who }): Promise<Collection[]> {
  return collectionsWithCounts(options.db, options.who.id);
}

/** POST /api/collections: at most MAX_COLLECTIONS_PER_USER, counted under the user's library lock. */
export async function createCollection(options: { db: Db; who: Who; input: { name: string } }): Promise<Collection> {
  const { db, who, input } = options;
  const row = await db.transaction(async (tx) => {
    await lockLibrary(tx, who.id);
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(knowledgeCollections)
      .where(eq(knowledgeCollections.userId, who.id));
    if (Number(count?.n ?? 0) >= MAX_COLLECTIONS_PER_USER) {
      throw new AppError("CONFLICT", FILE_LIMIT_MESSAGES.tooManyCollections(MAX_COLLECTIONS_PER_USER));
    }
    const [inserted] = await tx.insert(knowledgeCollections).values({ userId: who.id, name: input.name }).returning();
    return inserted;
  });
  if (!row) throw new Error("the collection was not stored");
  return toCollection(row, 0, 0);
}

export async function renameCollection(options: { db: Db; who: Who; id: number; input: { name: string } }): Promise<Collection> {
  const { db, who, id, input } = options;
  const [row] = await db
    .update(knowledgeCollections)
    .set({ name: input.name, updatedAt: new Date() })
    .where(and(eq(knowledgeCollections.id, id), eq(knowledgeCollections.userId, who.id)))
    .returning({ id: knowledgeCollections.id });
  if (!row) throw notFound();
  const [collection] = await collectionsWithCounts(db, who.id, id);
  if (!collection) throw notFound();
  return collection;
}

/**
 * DELETE /api/collections/:id: its files go with it (their bytes in the database, pieces and vectors by the foreign
 * keys), then the objects of those files in the object store.
 */
export async function deleteCollection(options: {
  db: Db;
  who: Who;
  fileStore: FileStore;
  id: number;
  log?: (message: string, error: unknown) => void;
}): Promise<void> {
  const { db, who, id } = options;
  const removedFiles = await db.transaction(async (tx) => {
    const [collection] = await tx
      .select({ id: knowledgeCollections.id })
      .from(knowledgeCollections)
      .where(and(eq(knowledgeCollections.id, id), eq(knowledgeCollections.userId, who.id)))
      .for("update");
    if (!collection) throw notFound();
    const files = await tx
      .delete(knowledgeFiles)
      .where(and(eq(knowledgeFiles.collectionId, id), eq(knowledgeFiles.userId, who.id)))
      .returning({ id: knowledgeFiles.id, storage: knowledgeFiles.storage, storageKey: knowledgeFiles.storageKey });
    await tx.delete(knowledgeCollections).where(eq(knowledgeCollections.id, id));
    return files;
  });
  // Their bytes after the rows: the database's parts or the object store's objects.
  await removeStored(options.fileStore, removedFiles, options.log);
}
