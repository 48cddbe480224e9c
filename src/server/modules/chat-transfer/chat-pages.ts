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
  "id" | "chatId" | "parentId" | "role" | "content" | "status" | "model" | "platformSlug" | "personalityName" | "createdAt" | "attachments"
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
};

/** Every message of some chats, by chat then id (parents before children), a bounded page at a time. */
export async function* messagePages(db: Db, chatIds: number[]): AsyncGenerator<ExportMessageRow[]> {
  let after = { chatId: 0, id: 0 };
  for (;;) {
    const rows = await db
      .select(messageColumns)
      .from(messages)
      .where(and(inArray(messages.chatId, chatIds), sql`(${messages.chatId}, ${messages.id}) > (${after.chatId}, ${after.id})`))
      .orderBy(asc(messages.chatId), asc(messages.id))
      .limit(EXPORT_MESSAGE_BATCH);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < EXPORT_MESSAGE_BATCH || !last) return;
    after = { chatId: last.chatId, id: last.id };
  }
}

/**
 * The messages of the branch shown in each chat (from the shown leaf, or the newest message, up to the first),
 * by chat then id. The walk up collects ids only; the text is read a bounded page at a time.
 */
export async function* shownBranchPages(db: Db, chatIds: number[]): AsyncGenerator<ExportMessageRow[]> {
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
    select id from branch order by chat_id, id`);
  const branchIds = (walked.rows as { id: unknown }[]).map((row) => Number(row.id));
  for (let start = 0; start < branchIds.length; start += EXPORT_MESSAGE_BATCH) {
    const page = branchIds.slice(start, start + EXPORT_MESSAGE_BATCH);
    yield await db.select(messageColumns).from(messages).where(inArray(messages.id, page)).orderBy(asc(messages.chatId), asc(messages.id));
  }
}
