import { and, desc, eq, lt, sql } from "drizzle-orm";
import { retitle } from "../../../shared/chat-title.js";
import type { Message, NewMessageInput } from "../../../shared/contracts/chat.js";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import type { Who } from "../../lib/who.js";
import { toMessage } from "./chat-view.js";
import { findOwnChat } from "./service.js";

/** The newest `limit` messages, oldest first; `nextCursor` pages back to older ones. */
export async function listMessages(options: { db: Db; who: Who; chatId: number; limit: number; before?: number | undefined }) {
  const { db, chatId, limit, before } = options;
  await findOwnChat(db, options.who.id, chatId);
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), before ? lt(messages.id, before) : undefined))
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).reverse();
  const oldest = page[0];
  return { items: page.map(toMessage), nextCursor: rows.length > limit && oldest ? String(oldest.id) : null };
}

/** POST /api/chats/{id}/messages (spec order: the client stores each message itself). */
export async function addMessage(options: { db: Db; who: Who; chatId: number; input: NewMessageInput }): Promise<Message> {
  const { db, chatId, input } = options;
  const userId = options.who.id;
  const chat = await findOwnChat(db, userId, chatId);
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(messages).values({ chatId, userId, role: input.role, content: input.content }).returning();
    if (!row) throw new Error("insert returned no row");
    await tx
      .update(chats)
      .set({ updatedAt: sql`now()`, ...(input.role === "user" ? retitle(chat.title, input.content) : {}) })
      .where(eq(chats.id, chatId));
    return toMessage(row);
  });
}

/** One message by id (the caller has checked the chat's owner). */
export async function findOwnMessage(db: Db, messageId: number): Promise<Message | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
  return row ? toMessage(row) : undefined;
}
