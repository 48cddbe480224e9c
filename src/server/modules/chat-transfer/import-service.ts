import { eq, sql } from "drizzle-orm";
import type { ImportResult } from "../../../shared/contracts/chat-transfer.js";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import { sha256Hex } from "../../lib/sha256.js";
import type { Who } from "../../lib/who.js";
import type { ImportChat } from "./import-chat.js";
import { readImportFile } from "./read-import-file.js";

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters a statement. */
const INSERT_BATCH = 500;

export const ALREADY_IMPORTED = "It is already in your chats, from an earlier import.";

/** The same chat read from the same file (or an identical one) hashes the same: its `chats.import_key`. */
const importKeyOf = (chat: ImportChat) => sha256Hex(JSON.stringify(chat));

/**
 * One chat, in one transaction, into the signed-in user's account (nothing in the file names a user). Message ids
 * are taken from the sequence first, so parent links are known before the rows go in. The rows go into the usual
 * tables: their search columns are generated, so search finds them at once. A chat this account already imported
 * (its key, while that chat is kept) is not stored again: "stored" false. So an import cut off midway (a restart,
 * kill -9, a dropped connection) or sent twice at once can be sent again, and only what is missing arrives.
 */
async function storeChat(db: Db, userId: number, chat: ImportChat): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(chats)
      .values({
        userId,
        title: chat.title,
        aiPlatform: chat.platform,
        model: chat.model,
        temporary: false,
        importKey: importKeyOf(chat),
        createdAt: chat.createdAt,
        updatedAt: chat.updatedAt,
      })
      .onConflictDoNothing({ target: [chats.userId, chats.importKey], where: sql`import_key is not null` })
      .returning({ id: chats.id });
    if (!row) return false;
    const reserved = await tx.execute(
      sql`select nextval(pg_get_serial_sequence('messages', 'id'))::int as id from generate_series(1, ${chat.messages.length})`,
    );
    const idOf = new Map<string, number>();
    for (const [index, message] of chat.messages.entries()) {
      idOf.set(message.key, Number((reserved.rows[index] as { id: number }).id));
    }
    for (let start = 0; start < chat.messages.length; start += INSERT_BATCH) {
      await tx.insert(messages).values(
        chat.messages.slice(start, start + INSERT_BATCH).map((message) => ({
          id: idOf.get(message.key) as number,
          chatId: row.id,
          userId,
          parentId: message.parentKey === null ? null : (idOf.get(message.parentKey) ?? null),
          role: message.role,
          content: message.content,
          status: message.status,
          platformSlug: message.platform,
          model: message.model,
          attachments: message.attachments,
          personalityName: message.personalityName,
          createdAt: message.createdAt,
          updatedAt: message.createdAt,
        })),
      );
    }
    const leaf = chat.activeLeafKey === null ? undefined : idOf.get(chat.activeLeafKey);
    if (leaf !== undefined) await tx.update(chats).set({ activeLeafId: leaf }).where(eq(chats.id, row.id));
    return true;
  });
}

/**
 * POST /api/chats/import: the whole file is checked first (a bad file imports nothing), then each chat goes
 * in on its own, so one that cannot be stored is reported and the others still arrive.
 */
export async function importChats(options: {
  db: Db;
  who: Who;
  data: unknown;
  log?: (message: string, error: unknown) => void;
}): Promise<ImportResult> {
  const { db, who } = options;
  const result: ImportResult = { imported: 0, skipped: [] };
  for (const chat of readImportFile(options.data)) {
    if (chat.messages.length === 0) {
      result.skipped.push({ title: chat.title, reason: "It has no messages to import." });
      continue;
    }
    try {
      if (await storeChat(db, who.id, chat)) result.imported += 1;
      else result.skipped.push({ title: chat.title, reason: ALREADY_IMPORTED });
    } catch (error) {
      options.log?.("importing a chat failed", error);
      result.skipped.push({ title: chat.title, reason: "It could not be stored. Try importing the file again." });
    }
  }
  return result;
}
