import { and, eq, sql } from "drizzle-orm";
import type { ImportResult } from "../../../shared/contracts/chat-transfer.js";
import type { Db } from "../../db/client.js";
import { chats } from "../../db/schema/index.js";
import { isUniqueViolation } from "../../lib/db-errors.js";
import { gently, letOthersIn } from "../../lib/gentle-statements.js";
import type { Who } from "../../lib/who.js";
import type { ImportChat, ImportMessage } from "./import-chat.js";
import { type ImportUpload, readImport } from "./import-reader.js";

/**
 * Messages per INSERT at most, and characters (text and attached files). The embedded database (PGlite) runs each
 * statement on the thread that answers requests, at about 5 MB of text a second (the search column and its index)
 * and a few thousand rows a second on an idle machine: a slice is cut to take a few milliseconds there, and between
 * slices other requests go first. On PostgreSQL the statements only wait on the network.
 */
const SLICE_ROWS = 50;
const SLICE_CHARS = 16 * 1024;

export const ALREADY_IMPORTED = "It is already in your chats, from an earlier import.";

/** The chat's messages in slices of at most SLICE_ROWS rows and SLICE_CHARS characters (a larger message alone). */
function* slices(messages: ImportMessage[]): Generator<ImportMessage[]> {
  let slice: ImportMessage[] = [];
  let chars = 0;
  for (const message of messages) {
    const size =
      message.content.length + message.attachments.reduce((sum, file) => sum + (file.content?.length ?? 0) + file.name.length, 0);
    if (slice.length > 0 && (slice.length >= SLICE_ROWS || chars + size > SLICE_CHARS)) {
      yield slice;
      slice = [];
      chars = 0;
    }
    slice.push(message);
    chars += size;
  }
  if (slice.length > 0) yield slice;
}

/**
 * One slice of a chat's messages in one statement, whose one parameter is the slice as JSON (`json_to_recordset`):
 * each row takes its id from the sequence, in the slice's order, and its parent is a message of an earlier slice
 * (`parent_id`, known) or of this one (`parent_ord`, its place in the slice). Answers each place's new id.
 */
async function insertSlice(db: Db, chatId: number, userId: number, slice: ImportMessage[], idOf: Map<string, number>) {
  const placeOf = new Map(slice.map((message, ord) => [message.key, ord]));
  const rows = slice.map((message, ord) => ({
    ord,
    parent_id: message.parentKey === null ? null : (idOf.get(message.parentKey) ?? null),
    parent_ord: message.parentKey === null ? null : (placeOf.get(message.parentKey) ?? null),
    role: message.role,
    content: message.content,
    status: message.status,
    platform_slug: message.platform,
    model: message.model,
    attachments: message.attachments,
    tool_calls: message.toolCalls ?? [],
    personality_name: message.personalityName,
    created_at: message.createdAt.toISOString(),
  }));
  const stored = await db.execute(sql`
    with r as (
      select r.*, nextval(pg_get_serial_sequence('messages', 'id'))::int as id
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(ord int, parent_id int, parent_ord int, role text, content text,
        status text, platform_slug text, model text, attachments jsonb, tool_calls jsonb, personality_name text, created_at timestamptz)
    ), stored as (
      insert into messages (id, chat_id, user_id, parent_id, role, content, status, platform_slug, model, attachments,
        tool_calls, personality_name, created_at, updated_at)
      select r.id, ${chatId}, ${userId}, coalesce(r.parent_id, parent.id), r.role, r.content, r.status, r.platform_slug,
        r.model, r.attachments, coalesce(r.tool_calls, '[]'::jsonb), r.personality_name, r.created_at, r.created_at
      from r left join r parent on parent.ord = r.parent_ord
    )
    select ord, id from r`);
  for (const row of stored.rows as { ord: number; id: number }[]) {
    const message = slice[Number(row.ord)];
    if (message) idOf.set(message.key, Number(row.id));
  }
}

/**
 * One chat into the signed-in user's account (nothing in the file names a user), in the usual tables: their search
 * columns are generated, so search finds it at once. A chat this account already imported (its `import_key`, while
 * that chat is kept) is not stored again: "stored" false (decision 024). So an import cut off midway (a restart,
 * kill -9, a dropped connection) or sent twice at once can be sent again, and only what is missing arrives.
 *
 * The chat is written in slices of messages, each slice one short statement, so that no transaction holds the
 * embedded database (which answers one statement at a time) for a whole chat: other requests' queries go between
 * slices. Until its last message is in, the chat's row is hidden (temporary: never listed, searched or exported,
 * and swept after a day if the import dies) and has no key; one last statement shows it and takes its key, so it
 * appears whole or not at all. Two imports of the same chat at once meet on the key's unique index there: the
 * second removes what it wrote and answers "stored" false.
 */
async function storeChat(db: Db, userId: number, chat: ImportChat, importKey: string): Promise<boolean> {
  const [known] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.importKey, importKey)))
    .limit(1);
  if (known) return false;
  const [row] = await db
    .insert(chats)
    .values({
      userId,
      title: chat.title,
      aiPlatform: chat.platform,
      model: chat.model,
      temporary: true,
      createdAt: chat.createdAt,
      // Until it is shown: the sweep of temporary chats counts a day from here.
      updatedAt: new Date(),
    })
    .returning({ id: chats.id });
  if (!row) throw new Error("The imported chat's row was not written");
  const removeIt = () =>
    db
      .delete(chats)
      .where(eq(chats.id, row.id))
      .catch(() => undefined);
  const idOf = new Map<string, number>();
  try {
    for (const slice of slices(chat.messages)) await gently(() => insertSlice(db, row.id, userId, slice, idOf));
    await letOthersIn();
  } catch (error) {
    await removeIt();
    throw error;
  }
  const leaf = chat.activeLeafKey === null ? null : (idOf.get(chat.activeLeafKey) ?? null);
  try {
    await db.update(chats).set({ temporary: false, importKey, updatedAt: chat.updatedAt, activeLeafId: leaf }).where(eq(chats.id, row.id));
    return true;
  } catch (error) {
    await removeIt();
    // Another import of the same chat took the key first.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * POST /api/chats/import: the whole file is read and checked first, in a worker thread (a bad file imports
 * nothing), then each chat goes in on its own, so one that cannot be stored is reported and the others still
 * arrive. Between chats, and between the slices of a chat, other requests go first.
 */
export async function importChats(options: {
  db: Db;
  who: Who;
  upload: ImportUpload;
  log?: (message: string, error: unknown) => void;
}): Promise<ImportResult> {
  const { db, who } = options;
  const result: ImportResult = { imported: 0, skipped: [] };
  for await (const { chat, key } of readImport(options.upload)) {
    if (chat.messages.length === 0) {
      result.skipped.push({ title: chat.title, reason: "It has no messages to import." });
      continue;
    }
    await letOthersIn();
    try {
      if (await storeChat(db, who.id, chat, key)) result.imported += 1;
      else result.skipped.push({ title: chat.title, reason: ALREADY_IMPORTED });
    } catch (error) {
      options.log?.("importing a chat failed", error);
      result.skipped.push({ title: chat.title, reason: "It could not be stored. Try importing the file again." });
    }
  }
  return result;
}
