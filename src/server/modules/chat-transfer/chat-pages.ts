import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { chats, messages } from "../../db/schema/index.js";
import { letOthersIn } from "../../lib/gentle-statements.js";
import { listedChat } from "../chat/listed-chat.js";

/*
 * Every read of an export is one short statement, and a turn of the event loop comes before each (decision 070): on
 * PGlite a statement runs on the thread that answers requests, so a read of the whole export, or of a whole page of
 * chats' messages, would hold every other request until it ends. The sizes below keep a statement near 10 ms there.
 */

/** Chats per page of an export: the whole export never sits in memory, only one page and its messages. */
export const EXPORT_CHAT_BATCH = 100;
/** Messages read per query while a page of chats is written. */
export const EXPORT_MESSAGE_BATCH = 200;
/** Messages one statement walks up a shown branch, or counts before a shown leaf, at most. */
export const EXPORT_WALK_ROWS = 1000;

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
 * at a time: a keyset on the id, so each page is one indexed range read however far the export has gone. The shown
 * leaf's place is counted apart (`leafRanks`), a bounded number of messages a statement.
 */
export async function* chatPages(
  db: Db,
  userId: number,
  options: { chatId?: number; batchSize?: number; walkRows?: number } = {},
): AsyncGenerator<ExportChatRow[]> {
  const batchSize = options.batchSize ?? EXPORT_CHAT_BATCH;
  let after = 0;
  for (;;) {
    await letOthersIn();
    const rows = await db
      .select({
        id: chats.id,
        title: chats.title,
        createdAt: chats.createdAt,
        updatedAt: chats.updatedAt,
        aiPlatform: chats.aiPlatform,
        model: chats.model,
        // The shown leaf when it is a message of this chat. Written out: inside a subquery a column must name its
        // table, or it would mean the subquery's own.
        leafId: sql<
          number | null
        >`(select leaf.id from messages leaf where leaf.id = "chats"."active_leaf_id" and leaf.chat_id = "chats"."id")`,
      })
      .from(chats)
      .where(and(eq(chats.userId, userId), options.chatId === undefined ? listedChat : eq(chats.id, options.chatId), gt(chats.id, after)))
      .orderBy(asc(chats.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    const leaves = rows.flatMap((row) => (row.leafId === null ? [] : [{ chatId: row.id, leafId: Number(row.leafId) }]));
    const ranks = await leafRanks(db, leaves, options.walkRows);
    yield rows.map(({ leafId: _leafId, ...row }) => ({ ...row, leafRank: ranks.get(row.id) ?? null }));
    const last = rows.at(-1);
    if (rows.length < batchSize || !last) return;
    after = last.id;
  }
}

const MAX_ID = 2_147_483_647;
const intList = (values: number[]) =>
  sql.join(
    values.map((value) => sql`${value}::int`),
    sql`, `,
  );
const intPairs = (pairs: [number, number][]) =>
  sql.join(
    pairs.map(([a, b]) => sql`(${a}::int, ${b}::int)`),
    sql`, `,
  );

/**
 * The chats a keyset read still has to reach: the one it stopped in and those after. Never the ones before, though
 * the keyset excludes them: PostgreSQL 15 walks the index of each chat the list names up to the keyset, so naming
 * them made every page of a large export read all that came before it (bench:export-isolation on PostgreSQL).
 */
const from = (chatId: number, chatIds: number[]) => chatIds.filter((id) => id >= chatId);

/**
 * Each shown leaf's place among its chat's messages in id order (1 = first): the messages of the chats counted in
 * their index's order, `walkRows` a statement, skipping what follows a chat's leaf.
 */
async function leafRanks(db: Db, leaves: { chatId: number; leafId: number }[], walkRows = EXPORT_WALK_ROWS): Promise<Map<number, number>> {
  const ranks = new Map<number, number>();
  if (leaves.length === 0) return ranks;
  const leafOf = new Map(leaves.map((leaf) => [leaf.chatId, leaf.leafId]));
  const bounds = intPairs(leaves.map((leaf) => [leaf.chatId, leaf.leafId]));
  let after = { chatId: 0, id: 0 };
  for (;;) {
    await letOthersIn();
    const counted = await db.execute(sql`
      with w as (
        select m.chat_id, m.id from messages m
        where m.chat_id in (${intList(
          from(
            after.chatId,
            leaves.map((leaf) => leaf.chatId),
          ),
        )})
          and (m.chat_id, m.id) > (${after.chatId}::int, ${after.id}::int)
        order by m.chat_id, m.id limit ${walkRows}
      )
      select w.chat_id, (count(*) filter (where w.id <= l.leaf_id))::int as below, count(*)::int as seen, max(w.id) as last
      from w join (values ${bounds}) as l(chat_id, leaf_id) on l.chat_id = w.chat_id
      group by w.chat_id order by w.chat_id`);
    const rows = counted.rows as { chat_id: unknown; below: unknown; seen: unknown; last: unknown }[];
    let seen = 0;
    for (const row of rows) {
      const chatId = Number(row.chat_id);
      ranks.set(chatId, (ranks.get(chatId) ?? 0) + Number(row.below));
      seen += Number(row.seen);
    }
    const last = rows.at(-1);
    if (!last || seen < walkRows) return ranks;
    const chatId = Number(last.chat_id);
    const lastId = Number(last.last);
    // Past its leaf, the rest of a chat counts for nothing: on to the next chat.
    after = { chatId, id: lastId >= (leafOf.get(chatId) ?? MAX_ID) ? MAX_ID : lastId };
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
 * attached files, and 200 of those would be hundreds of MB. A message larger than this comes alone. 1 MiB: on PGlite a
 * page of 4 MiB took about 67 ms to read, one of 1 MiB about 14 ms (1,000 messages of 20 KB).
 */
export const EXPORT_PAGE_BYTES = 1024 * 1024;

/** The bytes a message takes in an export: its text, and its attached files, tool calls and citations when it has some. */
const bytesOf = (alias: string) =>
  sql.raw(
    `(octet_length(${alias}.content) + case when jsonb_array_length(${alias}.attachments) = 0 then 2 else octet_length(${alias}.attachments::text) end` +
      ` + case when jsonb_array_length(${alias}.tool_calls) = 0 then 0 else octet_length(${alias}.tool_calls::text) end` +
      ` + case when jsonb_array_length(${alias}.citations) = 0 then 0 else octet_length(${alias}.citations::text) end)`,
  );

/** The sizes of an export's reads; the defaults above unless a test makes them small, so that every boundary is crossed. */
export type PageOptions = { batchSize?: number; pageBytes?: number; walkRows?: number };

/** Every message of some chats, by chat then id (parents before children), a page bounded in rows and bytes at a time. */
export async function* messagePages(db: Db, chatIds: number[], options: PageOptions = {}): AsyncGenerator<ExportMessageRow[]> {
  const batchSize = options.batchSize ?? EXPORT_MESSAGE_BATCH;
  const pageBytes = options.pageBytes ?? EXPORT_PAGE_BYTES;
  let after = { chatId: 0, id: 0 };
  for (;;) {
    await letOthersIn();
    // The sizes are added up in the database: the text of the messages past the page is never sent to the server.
    const window = db
      .select({
        ...messageColumns,
        running: sql<number>`sum(${bytesOf("messages")}) over (order by ${messages.chatId}, ${messages.id})`.as("running"),
        n: sql<number>`row_number() over (order by ${messages.chatId}, ${messages.id})`.as("n"),
      })
      .from(messages)
      .where(
        and(
          inArray(messages.chatId, from(after.chatId, chatIds)),
          sql`(${messages.chatId}, ${messages.id}) > (${after.chatId}, ${after.id})`,
        ),
      )
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
 * by chat then id. The walk up collects ids and sizes only, `walkRows` messages a statement for all the chats at once;
 * the text is read a page bounded in rows and bytes at a time.
 */
export async function* shownBranchPages(db: Db, chatIds: number[], options: PageOptions = {}): AsyncGenerator<ExportMessageRow[]> {
  const batchSize = options.batchSize ?? EXPORT_MESSAGE_BATCH;
  const pageBytes = options.pageBytes ?? EXPORT_PAGE_BYTES;
  const branch = await walkShownBranches(db, chatIds, options.walkRows ?? EXPORT_WALK_ROWS);
  let page: number[] = [];
  let bytes = 0;
  const read = async () => {
    await letOthersIn();
    return db.select(messageColumns).from(messages).where(inArray(messages.id, page)).orderBy(asc(messages.chatId), asc(messages.id));
  };
  for (const message of branch) {
    if (page.length > 0 && (page.length >= batchSize || bytes + message.bytes > pageBytes)) {
      yield await read();
      page = [];
      bytes = 0;
    }
    page.push(message.id);
    bytes += message.bytes;
  }
  if (page.length > 0) yield await read();
}

type BranchStep = { chat_id: unknown; id: unknown; parent_id: unknown; bytes: unknown; depth: unknown };

/**
 * The ids and sizes of the shown branches, by chat then id. Each statement walks every unfinished chat up as many
 * steps as keep it near `walkRows` messages, from where the last one stopped; a loop in the parents (never written by
 * the app) ends its chat's walk, as a parent in another chat or none does.
 */
async function walkShownBranches(db: Db, chatIds: number[], walkRows: number): Promise<{ id: number; bytes: number }[]> {
  if (chatIds.length === 0) return [];
  await letOthersIn();
  const leaves = await db.execute(sql`
    select c.id as chat_id, coalesce(
      (select m.id from messages m where m.id = c.active_leaf_id and m.chat_id = c.id),
      (select max(m.id) from messages m where m.chat_id = c.id)
    ) as id
    from chats c where c.id in (${intList(chatIds)})`);
  let frontier = (leaves.rows as { chat_id: unknown; id: unknown }[]).flatMap((row): [number, number][] =>
    row.id === null ? [] : [[Number(row.chat_id), Number(row.id)]],
  );
  const found: { chatId: number; id: number; bytes: number }[] = [];
  const seen = new Set<number>();
  while (frontier.length > 0) {
    const steps = Math.max(1, Math.floor(walkRows / frontier.length));
    await letOthersIn();
    const walked = await db.execute(sql`
      with recursive branch(chat_id, id, parent_id, bytes, depth) as (
        select m.chat_id, m.id, m.parent_id, ${bytesOf("m")}, 1
        from messages m join (values ${intPairs(frontier)}) as f(chat_id, id) on m.id = f.id and m.chat_id = f.chat_id
        union all
        select m.chat_id, m.id, m.parent_id, ${bytesOf("m")}, b.depth + 1
        from messages m join branch b on m.id = b.parent_id and m.chat_id = b.chat_id
        where b.depth < ${steps}::int
      )
      select chat_id, id, parent_id, bytes, depth from branch`);
    // Per chat, where its walk stopped: the deepest step, and whether it may go on.
    const ends = new Map<number, { depth: number; parentId: number | null; looped: boolean }>();
    for (const row of walked.rows as BranchStep[]) {
      const chatId = Number(row.chat_id);
      const id = Number(row.id);
      const depth = Number(row.depth);
      const end = ends.get(chatId) ?? { depth: 0, parentId: null, looped: false };
      if (seen.has(id)) end.looped = true;
      else {
        seen.add(id);
        found.push({ chatId, id, bytes: Number(row.bytes) });
      }
      if (depth > end.depth) {
        end.depth = depth;
        end.parentId = row.parent_id === null ? null : Number(row.parent_id);
      }
      ends.set(chatId, end);
    }
    frontier = [...ends].flatMap(([chatId, end]): [number, number][] =>
      end.depth === steps && end.parentId !== null && !end.looped && !seen.has(end.parentId) ? [[chatId, end.parentId]] : [],
    );
  }
  return found.sort((a, b) => a.chatId - b.chatId || a.id - b.id);
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
