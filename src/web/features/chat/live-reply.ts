import type { Attachment, Message, MessageAttachment } from "../../../shared/contracts/chat.js";
import type { ToolCall } from "../../../shared/contracts/tools.js";

/** The reply being sent or streamed, shown over the stored messages until they are fetched again. */
export type LiveReply = {
  phase: "sending" | "streaming";
  /** The user's message: optimistic (negative id) until the server's `start` names it. */
  userMessage: Message | null;
  assistant: Message | null;
  /**
   * Regenerate or edit: the stored message getting a new version; it and everything after it on the branch
   * shown are hidden meanwhile (the new version takes their place; the old ones stay as a sibling branch).
   */
  replacesId: number | null;
};

export type ReplyRequest = {
  content: string;
  attachments: Attachment[];
  /** Library files (issue 30), and how the message shows them until the server's copy comes (not sent). */
  fileIds?: number[];
  shownFiles?: MessageAttachment[];
  platformSlug?: string;
  model?: string;
};

let optimisticId = 0;

/** The user's message as it will be stored, shown at once (negative id until the server names it). */
export function optimisticMessage(chatId: number, request: ReplyRequest): Message {
  optimisticId -= 1;
  return {
    id: optimisticId,
    chatId,
    parentId: null,
    role: "user",
    content: request.content,
    status: "complete",
    error: null,
    platformSlug: request.platformSlug ?? null,
    model: request.model ?? null,
    attachments:
      request.shownFiles ??
      request.attachments.map((a) => ({
        name: a.name,
        size: new TextEncoder().encode(a.content).byteLength,
        fileId: null,
        type: null,
        kind: null,
        missing: false,
      })),
    citations: [],
    toolCalls: [],
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

/**
 * The stored messages with the live reply over them: the live copy wins; the message getting a new version
 * (regenerate, edit) is hidden with everything after it.
 */
export function mergeLive(stored: Message[], live: LiveReply | null): Message[] {
  if (!live) return stored;
  const cut = live.replacesId === null ? -1 : stored.findIndex((m) => m.id === live.replacesId);
  const hidden = new Set([live.userMessage?.id, live.assistant?.id]);
  const merged = (cut >= 0 ? stored.slice(0, cut) : stored).filter((m) => !hidden.has(m.id));
  if (live.userMessage) merged.push(live.userMessage);
  if (live.assistant) merged.push(live.assistant);
  return merged;
}

/** A tool call as its latest `tool` event says: in its place when the reply has it already, else after the others. */
export function withToolCall(message: Message, toolCall: ToolCall): Message {
  const at = message.toolCalls.findIndex((c) => c.id === toolCall.id);
  const toolCalls = at < 0 ? [...message.toolCalls, toolCall] : message.toolCalls.with(at, toolCall);
  return { ...message, toolCalls };
}
