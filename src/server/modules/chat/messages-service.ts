import { and, eq, sql } from "drizzle-orm";
import { retitle } from "../../../shared/chat-title.js";
import type { Message, NewMessageInput, ShownMessage } from "../../../shared/contracts/chat.js";
import { claimAiSlot } from "../../ai/usage-limits.js";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { readsLibrary } from "../../lib/library-access.js";
import type { Who } from "../../lib/who.js";
import { branchWithSiblings, newestLeafUnder, parentOf, shownLeaf } from "./branch-tree.js";
import { CHAT_NOT_FOUND, findOwnChat } from "./chat-service.js";
import { toMessage, toShownMessage, withoutPassages } from "./chat-view.js";

export const MESSAGE_NOT_FOUND = "Message not found";
export const STILL_WRITING = "A reply is still being written in this chat. Stop it or wait for it to finish.";

/**
 * The branch shown, root to leaf: its newest `limit` messages, oldest first, each with its place among its
 * siblings; `nextCursor` (the oldest id shown) pages back up the same branch.
 */
export async function listMessages(options: { db: Db; who: Who; chatId: number; limit: number; before?: number | undefined }) {
  const { db, chatId, limit, before } = options;
  const userId = options.who.id;
  await findOwnChat(db, userId, chatId);
  const start = before ? parentOf(chatId, before) : shownLeaf(userId, chatId);
  const rows = await branchWithSiblings(db, chatId, start, limit + 1);
  const page = rows.slice(-limit);
  const oldest = page[0];
  // A token without files:read sees the messages without the passages of the user's files (decision 056).
  const seen = readsLibrary(options.who) ? (message: ShownMessage) => message : withoutPassages;
  return {
    items: page.map((row) => seen(toShownMessage(row.message, row.siblingIds, row.missingFileIds))),
    nextCursor: rows.length > limit && oldest ? String(oldest.message.id) : null,
  };
}

/**
 * POST /api/chats/{id}/messages (the client stores each message itself, in order), after the leaf shown. A user
 * message counts against the messages per day (429 once spent), as a send does.
 */
export async function addMessage(options: { db: Db; who: Who; chatId: number; input: NewMessageInput }): Promise<Message> {
  const { db, chatId, input } = options;
  const userId = options.who.id;
  const chat = await findOwnChat(db, userId, chatId);
  return db.transaction(async (tx) => {
    // A user message stored this way is a message sent (decision 016), or it and a regenerate would be a send
    // that never counts: claimed like a send (user row, then chat row), though no reply starts here.
    if (input.role === "user") await claimAiSlot(tx, userId, Number.POSITIVE_INFINITY, { newMessage: true });
    // The chat's row lock orders this with sends, regenerates and switches of the same chat (and a delete: gone, 404).
    const locked = await tx.execute(sql`select id from chats where id = ${chatId} and user_id = ${userId} for update`);
    if (locked.rows.length === 0) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
    const [row] = await tx
      .insert(messages)
      .values({ chatId, userId, parentId: shownLeaf(userId, chatId), role: input.role, content: input.content })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await tx
      .update(chats)
      .set({ updatedAt: sql`now()`, activeLeafId: row.id, ...(input.role === "user" ? retitle(chat.title, input.content) : {}) })
      .where(eq(chats.id, chatId));
    return toMessage(row);
  });
}

/**
 * PUT /api/chats/{id}/branch: show the branch through this message, down to its newest descendant. Refused while
 * a reply is being written (it belongs to the branch shown); the chat's row lock orders it with sends.
 */
export async function switchBranch(options: { db: Db; who: Who; chatId: number; messageId: number }): Promise<{ leafId: number }> {
  const { db, chatId, messageId } = options;
  return db.transaction(async (tx) => {
    const locked = await tx.execute(sql`select id from chats where id = ${chatId} and user_id = ${options.who.id} for update`);
    if (locked.rows.length === 0) throw new AppError("NOT_FOUND", CHAT_NOT_FOUND);
    const [streaming] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.chatId, chatId), eq(messages.status, "streaming")))
      .limit(1);
    if (streaming) throw new AppError("CONFLICT", STILL_WRITING);
    const leafId = await newestLeafUnder(tx, chatId, messageId);
    if (leafId === null) throw new AppError("NOT_FOUND", MESSAGE_NOT_FOUND);
    await tx.update(chats).set({ activeLeafId: leafId }).where(eq(chats.id, chatId));
    return { leafId };
  });
}

/** One message by id (the caller has checked the chat's owner). */
export async function findOwnMessage(db: Db, messageId: number): Promise<Message | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
  return row ? toMessage(row) : undefined;
}
