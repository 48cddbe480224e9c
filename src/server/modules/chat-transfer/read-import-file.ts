import { DEFAULT_CHAT_TITLE } from "../../../shared/constants.js";
import { CHAT_EXPORT_FORMAT, chatExportFileSchema, type ExportedChat } from "../../../shared/contracts/chat-transfer.js";
import { cleanProviderText } from "../../ai/clean-text.js";
import { AppError } from "../../lib/app-error.js";
import { chatFromConversation, chatGptExportSchema } from "./chatgpt-format.js";
import type { ImportChat } from "./import-chat.js";
import { invalidFile } from "./import-errors.js";

const clean = (text: string) => cleanProviderText(text);
const cleanOrNull = (text: string | null) => (text === null ? null : clean(text));

/** A chat of this app's export: ids stay as keys, text loses NUL and broken Unicode. */
function chatFromExport(chat: ExportedChat): ImportChat {
  return {
    title: clean(chat.title).trim(),
    createdAt: new Date(chat.createdAt),
    updatedAt: new Date(chat.updatedAt),
    platform: clean(chat.platform),
    model: cleanOrNull(chat.model),
    activeLeafKey: chat.activeLeafId === null ? null : String(chat.activeLeafId),
    messages: chat.messages.map((message) => ({
      key: String(message.id),
      parentKey: message.parentId === null ? null : String(message.parentId),
      role: message.role,
      content: clean(message.content),
      // A reply still being written when exported is kept as it was: incomplete.
      status: message.status === "streaming" ? "incomplete" : message.status,
      model: cleanOrNull(message.model),
      platform: cleanOrNull(message.platform),
      personalityName: cleanOrNull(message.personalityName),
      createdAt: new Date(message.createdAt),
      attachments: message.attachments.map((file) => ({
        name: clean(file.name),
        size: Buffer.byteLength(clean(file.content)),
        content: clean(file.content),
      })),
    })),
  };
}

/**
 * Tells the two formats apart and checks the whole file before anything is stored: an array is a ChatGPT
 * `conversations.json`, an object naming our format is this app's export. Anything else is a 400 that says so.
 */
export function readImportFile(data: unknown): ImportChat[] {
  let chats: ImportChat[];
  if (Array.isArray(data)) {
    const parsed = chatGptExportSchema.safeParse(data);
    if (!parsed.success) throw invalidFile("ChatGPT conversations.json", parsed.error);
    chats = parsed.data.map(chatFromConversation);
  } else if (data && typeof data === "object" && (data as { format?: unknown }).format === CHAT_EXPORT_FORMAT) {
    const parsed = chatExportFileSchema.safeParse(data);
    if (!parsed.success) throw invalidFile("chat export of this app", parsed.error);
    chats = parsed.data.chats.map(chatFromExport);
  } else {
    throw new AppError(
      "BAD_REQUEST",
      `This file is neither a chat export of this app (an object with "format": "${CHAT_EXPORT_FORMAT}") nor the conversations.json of a ChatGPT data export (an array of conversations), so nothing was imported.`,
    );
  }
  return chats.map((chat) => ({ ...chat, title: chat.title || DEFAULT_CHAT_TITLE }));
}
