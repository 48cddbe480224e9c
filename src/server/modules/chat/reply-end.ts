import { eq, sql } from "drizzle-orm";
import type { Message, ReplyEnd, StreamEvent } from "../../../shared/contracts/chat.js";
import type { Db } from "../../db/client.js";
import { chats } from "../../db/schema/index.js";
import { usageOfUser } from "../usage/read-usage.js";
import { branchWithSiblings } from "./branch-tree.js";
import { chatColumns, type MessageRow, toChat, toMessage, toShownMessage } from "./chat-view.js";

export type DoneEvent = Extract<StreamEvent, { type: "done" }>;

/**
 * What a reply changed besides its text, read once its end is stored (`done.after`): the chat as GET /api/chats/{id}
 * answers it, the reply and the message it answers as the branch shown lists them, and the user's usage with the
 * reply's tokens counted; three reads run together. Null when any of it cannot be read (the database away, the chat
 * deleted meanwhile): the browser reads them itself then.
 */
export async function readReplyEnd(db: Db, reply: Pick<MessageRow, "id" | "chatId" | "userId">): Promise<ReplyEnd | null> {
  try {
    const [[chat], path, usage] = await Promise.all([
      db.select(chatColumns).from(chats).where(eq(chats.id, reply.chatId)).limit(1),
      // The reply and its parent: the only two of the branch whose place among siblings a reply changes.
      branchWithSiblings(db, reply.chatId, sql`${reply.id}`, 2),
      usageOfUser(db, reply.userId),
    ]);
    if (!chat || !usage || path.at(-1)?.message.id !== reply.id) return null;
    return { chat: toChat(chat), shown: path.map((row) => toShownMessage(row.message, row.siblingIds, row.missingFileIds)), usage };
  } catch {
    return null;
  }
}

/** A reply's `done` event: its stored end, and what it changed besides (`readReplyEnd`). */
export async function doneEvent(db: Db, row: MessageRow, message: Message = toMessage(row)): Promise<DoneEvent> {
  return { type: "done", assistantMessage: message, after: await readReplyEnd(db, row) };
}
