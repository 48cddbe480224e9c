import { and, eq, isNotNull, sql } from "drizzle-orm";
import {
  type DeleteFolderMode,
  FOLDER_MESSAGES,
  type Folder,
  type FolderInput,
  MAX_FOLDERS_PER_USER,
} from "../../../shared/contracts/chat-folders.js";
import type { Db, Tx } from "../../db/client.js";
import { chatFolders, chats, messages, users } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { GenerationManager } from "./generation/generation-manager.js";
import { listedChat } from "./listed-chat.js";

type FolderRow = typeof chatFolders.$inferSelect;

function toFolder(row: FolderRow, chatCount: number): Folder {
  return {
    id: row.id,
    name: row.name,
    chatCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Someone else's folder and a missing one look the same (404). Pass a transaction to lock it against a delete. */
export async function assertOwnFolder(db: Db | Tx, userId: number, folderId: number, lock = false): Promise<void> {
  const query = db
    .select({ id: chatFolders.id })
    .from(chatFolders)
    .where(and(eq(chatFolders.id, folderId), eq(chatFolders.userId, userId)));
  const [row] = lock ? await query.for("key share") : await query;
  if (!row) throw new AppError("NOT_FOUND", FOLDER_MESSAGES.notFound);
}

/**
 * The caller's folders by name, each with its number of listed chats: one query, the counts taken in one pass
 * over an index of the user's listed chats in folders (`chats_user_folder_listed_idx`), grouped by folder, rather than
 * one count per folder (issue 29) or a probe of each chat's messages (issue 42: 200 folders of 40 chats, PGlite).
 */
export async function listFolders(options: { db: Db; who: Who }): Promise<Folder[]> {
  const userId = options.who.id;
  const counts = options.db
    .select({ folderId: chats.folderId, n: sql<number>`count(*)::int`.as("n") })
    .from(chats)
    .where(and(eq(chats.userId, userId), isNotNull(chats.folderId), listedChat))
    .groupBy(chats.folderId)
    .as("counts");
  const rows = await options.db
    .select({ folder: chatFolders, chatCount: counts.n })
    .from(chatFolders)
    .leftJoin(counts, eq(counts.folderId, chatFolders.id))
    .where(eq(chatFolders.userId, userId))
    .orderBy(sql`lower(${chatFolders.name})`, chatFolders.id)
    .limit(MAX_FOLDERS_PER_USER);
  return rows.map((row) => toFolder(row.folder, Number(row.chatCount ?? 0)));
}

async function countOf(db: Db, userId: number, folderId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.folderId, folderId), listedChat));
  return Number(row?.n ?? 0);
}

/** At most MAX_FOLDERS_PER_USER: the user's row is locked so two parallel creates cannot pass the cap together. */
export async function createFolder(options: { db: Db; who: Who; input: FolderInput }): Promise<Folder> {
  const { db, who, input } = options;
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, who.id)).for("update");
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(chatFolders).where(eq(chatFolders.userId, who.id));
    if (Number(count?.n ?? 0) >= MAX_FOLDERS_PER_USER) throw new AppError("BAD_REQUEST", FOLDER_MESSAGES.tooMany);
    const [row] = await tx.insert(chatFolders).values({ userId: who.id, name: input.name }).returning();
    if (!row) throw new Error("insert returned no row");
    return toFolder(row, 0);
  });
}

export async function renameFolder(options: { db: Db; who: Who; folderId: number; input: FolderInput }): Promise<Folder> {
  const { db, who, folderId } = options;
  const [row] = await db
    .update(chatFolders)
    .set({ name: options.input.name, updatedAt: sql`now()` })
    .where(and(eq(chatFolders.id, folderId), eq(chatFolders.userId, who.id)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", FOLDER_MESSAGES.notFound);
  return toFolder(row, await countOf(db, who.id, folderId));
}

/**
 * `move`: the chats stay, in no folder (the foreign key sets it null). `delete`: the chats go too, a reply
 * still being written in one of them stopped first, as when one chat is deleted.
 */
export async function deleteFolder(options: {
  db: Db;
  who: Who;
  generations: GenerationManager;
  folderId: number;
  mode: DeleteFolderMode;
}): Promise<void> {
  const { db, who, folderId } = options;
  await assertOwnFolder(db, who.id, folderId);
  if (options.mode === "delete") {
    const streaming = await db
      .select()
      .from(messages)
      .innerJoin(chats, eq(chats.id, messages.chatId))
      .where(and(eq(messages.userId, who.id), eq(messages.status, "streaming"), eq(chats.userId, who.id), eq(chats.folderId, folderId)));
    for (const row of streaming) await options.generations.stop(row.messages).catch(() => {});
  }
  const deleted = await db.transaction(async (tx) => {
    if (options.mode === "delete") await tx.delete(chats).where(and(eq(chats.userId, who.id), eq(chats.folderId, folderId)));
    return tx
      .delete(chatFolders)
      .where(and(eq(chatFolders.id, folderId), eq(chatFolders.userId, who.id)))
      .returning({ id: chatFolders.id });
  });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", FOLDER_MESSAGES.notFound);
}
