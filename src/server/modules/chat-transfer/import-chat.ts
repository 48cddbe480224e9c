import type { StoredAttachment, StoredToolCall } from "../../db/schema/chat.js";
import { sha256Hex } from "../../lib/sha256.js";

/** One message to import, whatever file it came from; `key` is only unique inside its chat. */
export interface ImportMessage {
  key: string;
  parentKey: string | null;
  role: "user" | "assistant";
  content: string;
  status: "complete" | "incomplete" | "failed";
  model: string | null;
  platform: string | null;
  personalityName: string | null;
  createdAt: Date;
  attachments: StoredAttachment[];
  /** A reply's tool calls (issue 34; this app's export only). */
  toolCalls?: StoredToolCall[];
}

/** One chat to import: its messages listed parents first; `activeLeafKey` null means the newest message. */
export interface ImportChat {
  title: string;
  createdAt: Date;
  updatedAt: Date;
  platform: string;
  model: string | null;
  activeLeafKey: string | null;
  messages: ImportMessage[];
}

/** A chat read from a file, with its `chats.import_key` (decision 024). */
export interface KeyedImportChat {
  chat: ImportChat;
  key: string;
}

/** The same chat read from the same file (or an identical one) hashes the same: its `chats.import_key`. */
export const importKeyOf = (chat: ImportChat) => sha256Hex(JSON.stringify(chat));
