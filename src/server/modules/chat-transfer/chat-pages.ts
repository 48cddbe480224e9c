import { and, asc, eq, exists, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";

/** Chats per page of an export: the whole export never sits in memory, only one page and its messages. */
export const EXPORT_CHAT_BATCH = 100;
/** Messages read per query while a page of chats is written. */
export const EXPORT_MESSAGE_BATCH = 500;

export interface ExportChatRow {
  id: number;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  aiPlatform: string;
  model: string | null;
  /** The shown leaf's place among the chat's messages in id order (1 = first), or null (the newest is shown). */
  leafRank: number | null;
}

/**
 * The user's saved chats (not temporary, with at least one message, or one chosen chat), oldest first, a page
 * at a time: a keyset on the id, so each page is one indexed range read however far the export has gone.
 */
export async function* chatPages(
  db: Db,
  userId: number,
  options: { chatId?: number; batchSize?: number } = {},
): AsyncGenerator<ExportChatRow[]> {
  const batchSize = options.batchSize ?? EXPORT_CHAT_BATCH;
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: chats.id,
        title: chats.title,
        createdAt: chats.createdAt,
        updatedAt: chats.updatedAt,
        aiPlatform: chats.aiPlatform,
        model: chats.model,
        // Written out: inside a subquery a column must name its table, or it would mean the subquery's own.
        leafRank: sql<number | null>`case when exists (
            select 1 from messages leaf where leaf.id = "chats"."active_leaf_id" and leaf.chat_id = "chats"."id"
          ) then (select count(*) from messages m where m.chat_id = "chats"."id" and m.id <= "chats"."active_leaf_id")::int end`,
      })
      .from(chats)
      .where(
        and(
          eq(chats.userId, userId),
          options.chatId === undefined
            ? and(eq(chats.temporary, false), exists(db.select({ one: sql`1` }).from(messages).where(eq(messages.chatId, chats.id))))
            : eq(chats.id, options.chatId),
          gt(chats.id, after),
        ),
      )
      .orderBy(asc(chats.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => ({ ...row, leafRank: row.leafRank === null ? null : Number(row.leafRank) }));
    const last = rows.at(-1);
    if (rows.length < batchSize || !last) return;
    after = last.id;
  }
}

export type ExportMessageRow = Pick<
  typeof messages.$inferSelect,
  | "id"
  | "chatId"
  | "parentId"
  | "role"
  | "content"
  | "status"
  | "model"
  | "platformSlug"
  | "personalityName"
  | "createdAt"
  | "attachments"
  | "toolCalls"
  | "citations"
>;

const messageColumns = {
  id: messages.id,
  chatId: messages.chatId,
  parentId: messages.parentId,
  role: messages.role,
  content: messages.content,
  status: messages.status,
  model: messages.model,
  platformSlug: messages.platformSlug,
  personalityName: messages.personalityName,
  createdAt: messages.createdAt,
  attachments: messages.attachments,
  toolCalls: messages.toolCalls,
  citations: messages.citations,
};

/**
 * Text read per page at most: a page is also cut by size, since one message may hold 500,000 characters and five
 * attached files, and 500 of those would be hundreds of MB. A message larger than this comes alone.
 */
export const EXPORT_PAGE_BYTES = 4 * 1024 * 1024;

/** The bytes a message takes in an export: its text, and its attached files, tool calls and citations when it has some. */
const bytesOf = (alias: string) =>
  sql.raw(
    `(octet_length(${alias}.content) + case when jsonb_array_length(${alias}.attachments) = 0 then 2 else octet_length(${alias}.attachments::text) end` +
      ` + case when jsonb_array_length(${alias}.tool_calls) = 0 then 0 else octet_length(${alias}.tool_calls::text) end` +
      ` + case when jsonb_array_length(${alias}.citations) = 0 then 0 else octet_length(${alias}.citations::text) end)`,
  );

type PageOptions = { batchSize?: number; pageBytes?: number };

/** Every message of some chats, by chat then id (parents before children), a page bounded in rows and bytes at a time. */
export async function* messagePages(db: Db, chatIds: number[], options: PageOptions = {}): AsyncGenerator<ExportMessageRow[]> {
  const batchSize = options.batchSize ?? EXPORT_MESSAGE_BATCH;
  const pageBytes = options.pageBytes ?? EXPORT_PAGE_BYTES;
  let after = { chatId: 0, id: 0 };
  for (;;) {
    // The sizes are added up in the database: the text of the messages past the page is never sent to the server.
    const window = db
      .select({
        ...messageColumns,
        running: sql<number>`sum(${bytesOf("messages")}) over (order by ${messages.chatId}, ${messages.id})`.as("running"),
        n: sql<number>`row_number() over (order by ${messages.chatId}, ${messages.id})`.as("n"),
      })
      .from(messages)
      .where(and(inArray(messages.chatId, chatIds), sql`(${messages.chatId}, ${messages.id}) > (${after.chatId}, ${after.id})`))
      .orderBy(asc(messages.chatId), asc(messages.id))
      .limit(batchSize)
      .as("w");
    const { running: _running, n: _n, ...columns } = window._.selectedFields;
    const rows = (await db
      .select(columns)
      .from(window)
      .where(sql`${window.running} <= ${pageBytes} or ${window.n} = 1`)
      .orderBy(asc(window.chatId), asc(window.id))) as ExportMessageRow[];
    const last = rows.at(-1);
    if (!last) return;
    yield rows;
    after = { chatId: last.chatId, id: last.id };
  }
}

/**
 * The messages of the branch shown in each chat (from the shown leaf, or the newest message, up to the first),
 * by chat then id. The walk up collects ids and sizes only; the text is read a page bounded in rows and bytes at a time.
 */
export async function* shownBranchPages(db: Db, chatIds: number[], options: PageOptions = {}): AsyncGenerator<ExportMessageRow[]> {
  const batchSize = options.batchSize ?? EXPORT_MESSAGE_BATCH;
  const pageBytes = options.pageBytes ?? EXPORT_PAGE_BYTES;
  const ids = sql.join(
    chatIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const walked = await db.execute(sql`
    with recursive leaf as (
      select c.id as chat_id, coalesce(
        (select m.id from messages m where m.id = c.active_leaf_id and m.chat_id = c.id),
        (select max(m.id) from messages m where m.chat_id = c.id)
      ) as id
      from chats c where c.id in (${ids})
    ), branch(chat_id, id, parent_id) as (
      select m.chat_id, m.id, m.parent_id from messages m join leaf on m.id = leaf.id and m.chat_id = leaf.chat_id
      union
      select m.chat_id, m.id, m.parent_id from messages m join branch b on m.id = b.parent_id and m.chat_id = b.chat_id
    )
    select b.id, ${bytesOf("s")} as bytes from branch b join messages s on s.id = b.id order by b.chat_id, b.id`);
  let page: number[] = [];
  let bytes = 0;
  const read = () =>
    db.select(messageColumns).from(messages).where(inArray(messages.id, page)).orderBy(asc(messages.chatId), asc(messages.id));
  for (const row of walked.rows as { id: unknown; bytes: unknown }[]) {
    const size = Number(row.bytes);
    if (page.length > 0 && (page.length >= batchSize || bytes + size > pageBytes)) {
      yield await read();
      page = [];
      bytes = 0;
    }
    page.push(Number(row.id));
    bytes += size;
  }
  if (page.length > 0) yield await read();
}

/**
 * One page of chats written with their messages (read a bounded page at a time, in the chats' order): `open`
 * once per chat before its messages (also for a chat whose messages are all on later pages or absent), then
 * `message` for each; what they return is yielded a page of messages at a time.
 */
export async function* writeChatsWithMessages(
  batch: ExportChatRow[],
  messagesOf: AsyncIterable<ExportMessageRow[]>,
  write: { open(chat: ExportChatRow, index: number): string; message(message: ExportMessageRow): string },
): AsyncGenerator<string> {
  const indexOf = new Map(batch.map((chat, index) => [chat.id, index]));
  let open = -1;
  const openUpTo = (index: number): string => {
    let out = "";
    for (; open < index && open + 1 < batch.length; open += 1) out += write.open(batch[open + 1] as ExportChatRow, open + 1);
    return out;
  };
  for await (const page of messagesOf) {
    let out = "";
    for (const message of page) {
      out += openUpTo(indexOf.get(message.chatId) ?? open);
      out += write.message(message);
    }
    yield out;
  }
  yield openUpTo(batch.length - 1);
}
