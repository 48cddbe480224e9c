import { and, eq } from "drizzle-orm";
import { ENDED_UNANSWERED } from "../../../shared/contracts/paused-reply.js";
import type { Db } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";
import type { MessageRow } from "./chat-view.js";
import { STOPPED_BY_USER } from "./generation/generation-manager.js";
import { callsEnded } from "./tool-steps.js";

// Ending a reply paused on a tool call (issue 34, decision 050): Stop on it, or a new reply in its chat (a send, an
// edit, a regenerate). A paused reply holds no allowance and no concurrency slot (its hold was settled at the pause) and
// runs nowhere, so ending it is one conditional update of its row: a racing approve or deny finds it no longer awaiting.
// The browser shows the same end at once (`endedPausedReply`, shared/contracts/paused-reply.ts, with the words used here).

/** The error a paused reply ended by Stop keeps: the same words as a running reply stopped. */
export const PAUSED_STOPPED = STOPPED_BY_USER;

/**
 * Ends the chat's replies paused on a call (all of them, whatever branch: a chat has at most one reply going on, paused
 * or not, once any new reply starts). Each is kept: `incomplete` (its text and earlier calls stay), with `error` saying
 * why, and each call still awaiting is `denied` with `ENDED_UNANSWERED`. Returns the rows it ended.
 */
export async function endPausedReplies(db: Db, chatId: number, error: string): Promise<MessageRow[]> {
  const toolCalls = callsEnded("awaiting-approval", "denied", ENDED_UNANSWERED);
  return db
    .update(messages)
    .set({ status: "incomplete", error, toolCalls, generationOwner: null, updatedAt: new Date() })
    .where(and(eq(messages.chatId, chatId), eq(messages.status, "awaiting-approval")))
    .returning();
}
