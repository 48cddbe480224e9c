import type { ExportFormat } from "../../../shared/contracts/chat-transfer.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import { findOwnChat } from "../chat/chat-service.js";
import { chatPages, type PageOptions } from "./chat-pages.js";
import { jsonExport } from "./export-json.js";
import { markdownExport } from "./export-markdown.js";

export interface ExportDownload {
  fileName: string;
  contentType: string;
  /** The file, piece by piece: read lazily while it is sent. */
  body: AsyncIterable<string>;
}

/** A title as an ASCII file name: `Trip to Lisbon!` → `trip-to-lisbon`. */
function fileSlug(title: string): string {
  return (
    title
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || "chat"
  );
}

const extension = { json: "json", markdown: "md" } as const;
const contentType = { json: "application/json; charset=utf-8", markdown: "text/markdown; charset=utf-8" } as const;

/**
 * GET /api/chats/export and /api/chats/{id}/export. Ownership is checked before anything is sent (someone else's
 * chat is a 404); the file itself is produced while it streams. Temporary chats are never exported.
 */
export async function exportChats(options: {
  db: Db;
  who: Who;
  format: ExportFormat;
  chatId?: number;
  /** Smaller reads than the defaults (tests): chats per page, and the messages' page options. */
  paging?: { chats?: number } & PageOptions;
}): Promise<ExportDownload> {
  const { db, who, format, chatId, paging = {} } = options;
  const exportedAt = new Date();
  const day = exportedAt.toISOString().slice(0, 10);
  let name = `chats-${day}`;
  if (chatId !== undefined) {
    const chat = await findOwnChat(db, who.id, chatId);
    if (chat.temporary) {
      throw new AppError("BAD_REQUEST", "This is a temporary chat, so it cannot be exported. Turn Save Chat History on to keep chats.");
    }
    name = `${fileSlug(chat.title)}-${day}`;
  }
  const { chats: chatBatch, ...messagePaging } = paging;
  const pages = chatPages(db, who.id, { chatId, batchSize: chatBatch, walkRows: paging.walkRows });
  return {
    fileName: `${name}.${extension[format]}`,
    contentType: contentType[format],
    body:
      format === "json"
        ? jsonExport(db, pages, exportedAt, messagePaging)
        : markdownExport(db, pages, { exportedAt, single: chatId !== undefined, paging: messagePaging }),
  };
}
