import type { Chat, Message, MessageStatus } from "../../../shared/contracts/chat.js";
import type { chats, messages } from "../../db/schema/index.js";

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export function toChat(
  row: Pick<ChatRow, "id" | "title" | "aiPlatform" | "model" | "temporary" | "personalityId" | "createdAt" | "updatedAt">,
): Chat {
  return {
    id: row.id,
    title: row.title,
    aiPlatform: row.aiPlatform,
    model: row.model,
    temporary: row.temporary,
    personalityId: row.personalityId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The attachments' text stays on the server (it goes to the model); the browser sees names and sizes. */
export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    chatId: row.chatId,
    role: row.role as Message["role"],
    content: row.content,
    status: row.status as MessageStatus,
    error: row.error,
    platformSlug: row.platformSlug,
    model: row.model,
    attachments: row.attachments.map((a) => ({ name: a.name, size: a.size })),
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    personalityName: row.personalityName,
    createdAt: row.createdAt.toISOString(),
  };
}
