import type { StoredAttachment } from "../../db/schema/chat.js";

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
