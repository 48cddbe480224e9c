import type { Message } from "./chat.js";

// A reply paused on a tool call that is ended without an answer (issue 34, decision 050): by Stop, or by a new reply in
// its chat (a send, an edit, a regenerate). The server stores it so (server/modules/chat/paused-reply.ts); the browser
// shows the same at once in the copy it holds, so a card never offers Approve on a reply that is over.

/** The result a call left unanswered gets when its reply is ended (shown on its card and given back to the model). */
export const ENDED_UNANSWERED = "The reply was ended before this call was answered.";
/** The error a paused reply ended by a new message (or an edit, or a regenerate) in its chat keeps. */
export const PAUSED_LEFT = "Ended by a new message before its tool call was answered.";

/** A paused reply as it is once ended: kept as incomplete with `error`, each call still awaiting denied. */
export function endedPausedReply<T extends Message>(message: T, error: string): T {
  if (message.status !== "awaiting-approval") return message;
  return {
    ...message,
    status: "incomplete",
    error,
    toolCalls: message.toolCalls.map((call) =>
      call.status === "awaiting-approval" ? { ...call, status: "denied", result: ENDED_UNANSWERED } : call,
    ),
  };
}
