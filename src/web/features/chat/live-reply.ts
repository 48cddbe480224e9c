import type { Attachment, Message } from "../../../shared/contracts/chat.js";

/** The reply being sent or streamed, shown over the stored messages until they are fetched again. */
export type LiveReply = {
  phase: "sending" | "streaming";
  /** The user's message: optimistic (negative id) until the server's `start` names it. */
  userMessage: Message | null;
  assistant: Message | null;
  /** Regenerate: the stored reply being replaced (hidden meanwhile). */
  replacesId: number | null;
};

export type ReplyRequest = { content: string; attachments: Attachment[]; platformSlug?: string; model?: string };

let optimisticId = 0;

/** The user's message as it will be stored, shown at once (negative id until the server names it). */
export function optimisticMessage(chatId: number, request: ReplyRequest): Message {
  optimisticId -= 1;
  return {
    id: optimisticId,
    chatId,
    role: "user",
    content: request.content,
    status: "complete",
    error: null,
    platformSlug: request.platformSlug ?? null,
    model: request.model ?? null,
    attachments: request.attachments.map((a) => ({ name: a.name, size: new TextEncoder().encode(a.content).byteLength })),
    inputTokens: null,
    outputTokens: null,
    personalityName: null,
    createdAt: new Date().toISOString(),
  };
}

/**
 * Appends a delta once: `offset` is where its text starts in the reply, so
 * only the part past what is already shown is added (a resumed stream never
 * repeats text). A delta that starts past the end would leave a gap: it is
 * skipped, and the final message fixes the text.
 */
export function appendDelta(message: Message, offset: number, text: string): Message {
  const length = message.content.length;
  if (offset > length || offset + text.length <= length) return message;
  return { ...message, content: message.content + text.slice(length - offset) };
}

/** The stored messages with the live reply over them: the live copy wins, the reply being replaced is hidden. */
export function mergeLive(stored: Message[], live: LiveReply | null): Message[] {
  if (!live) return stored;
  const hidden = new Set([live.replacesId, live.userMessage?.id, live.assistant?.id]);
  const merged = stored.filter((m) => !hidden.has(m.id));
  if (live.userMessage) merged.push(live.userMessage);
  if (live.assistant) merged.push(live.assistant);
  return merged;
}
