import {
  CHAT_EXPORT_FORMAT,
  CHAT_EXPORT_VERSION,
  EXPORT_NOTE,
  type ExportedCitation,
  type ExportedMessage,
} from "../../../shared/contracts/chat-transfer.js";
import type { Db } from "../../db/client.js";
import type { StoredCitation } from "../../db/schema/index.js";
import { toToolCall } from "../chat/chat-view.js";
import { type ExportChatRow, type ExportMessageRow, messagePages, type PageOptions, writeChatsWithMessages } from "./chat-pages.js";

const json = JSON.stringify;

/** A chat's fields up to its messages (ids in the file are local: 1, 2, 3... in the order of the messages). */
function chatHead(chat: ExportChatRow): string {
  return (
    `{"title":${json(chat.title)},"createdAt":${json(chat.createdAt.toISOString())},"updatedAt":${json(chat.updatedAt.toISOString())},` +
    `"platform":${json(chat.aiPlatform)},"model":${json(chat.model)},"activeLeafId":${json(chat.leafRank)},"messages":[`
  );
}

/** A citation as the export lists it: without the file's and the piece's database ids. */
const exportedCitation = (c: StoredCitation): ExportedCitation => ({ n: c.n, fileName: c.fileName, page: c.page, excerpt: c.excerpt });

function messageJson(message: ExportMessageRow, localId: number, parentId: number | null): string {
  const exported: ExportedMessage = {
    id: localId,
    parentId,
    role: message.role as ExportedMessage["role"],
    content: message.content,
    status: message.status as ExportedMessage["status"],
    model: message.model,
    platform: message.platformSlug,
    personalityName: message.personalityName,
    createdAt: message.createdAt.toISOString(),
    attachments: message.attachments.map((file) => ({
      name: file.name,
      size: file.size,
      content: file.content,
      type: file.mimeType,
      sha256: file.sha256,
    })),
    ...(message.toolCalls.length
      ? {
          toolCalls: message.toolCalls.map((call) => ({
            ...toToolCall(call),
            step: call.step,
            sources: (call.sources ?? []).map(exportedCitation),
          })),
        }
      : {}),
    ...(message.citations.length ? { citations: message.citations.map(exportedCitation) } : {}),
  };
  return json(exported);
}

/**
 * The JSON export (`chatExportFileSchema`), written piece by piece: one page of chats at a time, and their
 * messages a bounded page at a time, so the size of the account never decides the memory used.
 */
export async function* jsonExport(
  db: Db,
  pages: AsyncIterable<ExportChatRow[]>,
  exportedAt: Date,
  paging: PageOptions = {},
): AsyncGenerator<string> {
  yield `{"format":${json(CHAT_EXPORT_FORMAT)},"version":${CHAT_EXPORT_VERSION},"exportedAt":${json(exportedAt.toISOString())},"note":${json(EXPORT_NOTE)},"chats":[\n`;
  let chatsWritten = 0;
  for await (const batch of pages) {
    // Ids in the file are local to each chat: 1, 2, 3... in the order of its messages.
    let localIds = new Map<number, number>();
    yield* writeChatsWithMessages(
      batch,
      messagePages(
        db,
        batch.map((chat) => chat.id),
        paging,
      ),
      {
        open(chat, index) {
          const head = `${index > 0 ? "]}" : ""}${chatsWritten > 0 ? ",\n" : ""}${chatHead(chat)}`;
          chatsWritten += 1;
          localIds = new Map();
          return head;
        },
        message(message) {
          const localId = localIds.size + 1;
          const parentId = message.parentId === null ? null : (localIds.get(message.parentId) ?? null);
          localIds.set(message.id, localId);
          return `${localId > 1 ? "," : ""}${messageJson(message, localId, parentId)}`;
        },
      },
    );
    yield "]}";
  }
  yield "\n]}\n";
}
