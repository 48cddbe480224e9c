import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { deleteChatRow, findOwnChat } from "./chat-service.js";
import { type MessageRow, toMessage, toToolCall } from "./chat-view.js";
import { type EventStream, relayLocal, relayRemote } from "./event-stream.js";
import type { GenerationManager } from "./generation/generation-manager.js";
import { findOwnMessage } from "./messages-service.js";
import { endPausedReplies, PAUSED_STOPPED } from "./paused-reply.js";
import { doneEvent } from "./reply-end.js";

/** A reply still being written, wherever it runs: resume, Stop, and deleting its chat. */
export interface StreamingOptions {
  db: Db;
  who: Who;
  generations: GenerationManager;
  chatId: number;
}

/** The reply being written in this chat, if any (owner only, else 404). */
export async function findStreamingReply(db: Db, userId: number, chatId: number): Promise<MessageRow | undefined> {
  await findOwnChat(db, userId, chatId);
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.status, "streaming")))
    .orderBy(desc(messages.id))
    .limit(1);
  return row;
}

/**
 * Resume: what follows the reply being written in this chat, from what has arrived so far, once the
 * caller has opened the stream. Null when none is (the route answers 204).
 */
export async function followStreamingReply(options: StreamingOptions): Promise<((stream: EventStream) => Promise<void>) | null> {
  const { db, generations } = options;
  const row = await findStreamingReply(db, options.who.id, options.chatId);
  if (!row) return null;
  return async (stream) => {
    const local = generations.get(row.id);
    if (local)
      return relayLocal(stream, local, {
        type: "snapshot",
        assistantMessage: { ...toMessage(row), content: local.content, toolCalls: local.toolCalls.map(toToolCall) },
      });
    if (generations.mirror) return relayRemote(stream, generations, toMessage(row), row.generationOwner);
    // One instance and nobody writing it: a reply left over from before a restart. Close it and show it.
    await generations.recoverOrphans().catch(() => {});
    const closed = await findOwnMessage(db, row.id);
    stream.send({ type: "snapshot", assistantMessage: closed ?? toMessage(row) });
    if (closed && closed.status !== "streaming") stream.send(await doneEvent(db, row, closed));
    stream.end();
  };
}

const NOT_STOPPED = "The reply could not be stopped: the database did not answer. Please try again.";

/**
 * Stop: the reply being written in this chat ends, whatever its state (running here or on another
 * instance, orphaned, its end not saved): stored as incomplete, so a new reply may start. With none being written,
 * a reply paused on a tool call ends instead (decision 050): kept as incomplete, its unanswered call denied.
 */
export async function stopReply(options: StreamingOptions): Promise<{ stopped: boolean }> {
  const row = await findStreamingReply(options.db, options.who.id, options.chatId);
  if (!row) return { stopped: (await endPausedReplies(options.db, options.chatId, PAUSED_STOPPED)).length > 0 };
  // False when the row was closed by something else meanwhile (the orphan sweep, another Stop).
  const stopped = await options.generations.stop(row).catch(() => {
    throw new AppError("UNAVAILABLE", NOT_STOPPED);
  });
  return { stopped };
}

/** Deletes the chat and its messages; a reply still being written is stopped first. */
export async function deleteChat(options: StreamingOptions): Promise<void> {
  const { db, who, chatId } = options;
  const streaming = await findStreamingReply(db, who.id, chatId);
  // The delete takes the row with it, ended or not.
  if (streaming) await options.generations.stop(streaming).catch(() => {});
  await deleteChatRow(db, who.id, chatId);
}
