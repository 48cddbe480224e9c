import { and, asc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.js";
import { preparedPerDb } from "../../db/prepared.js";
import { messages } from "../../db/schema/index.js";
import type { MessageRow } from "./chat-view.js";

// Messages form a tree (`parent_id`); a chat shows one branch of it, from a root down to its leaf. A child is
// always written after its parent, so ids grow along every branch: "older" on a branch is "smaller id".

type Reader = DbOrTx;
/** A number, or a placeholder of a prepared query. */
type Value = number | Placeholder;

/**
 * The leaf of the branch shown of the chat row `c`: the one it remembers, else its newest message. The rule is the
 * database's `chat_shown_leaf` (migration 0015), which a reply's start (`start_reply`) uses too.
 */
export const leafOfChat = sql`chat_shown_leaf(c.id, c.active_leaf_id)`;

/** The leaf of the branch shown (see `leafOfChat`). The owner is in the filter. */
export function shownLeaf(userId: Value, chatId: Value): SQL {
  return sql`(select ${leafOfChat} from chats c where c.id = ${chatId} and c.user_id = ${userId})`;
}

/** The message a branch page starts from when paging back: the parent of the oldest one shown. */
export function parentOf(chatId: number, messageId: number): SQL {
  return sql`(select m.parent_id from messages m where m.id = ${messageId} and m.chat_id = ${chatId})`;
}

/** `messages.id` is on the path from `start` up to the root, at most `limit` steps of it. */
function onPathUp(chatId: Value, start: SQL, limit: Value): SQL {
  return sql`${messages.id} in (
    with recursive path(id, parent_id, depth) as (
      select m.id, m.parent_id, 1 from messages m where m.id = ${start} and m.chat_id = ${chatId}
      union all
      select m.id, m.parent_id, path.depth + 1 from messages m join path on m.id = path.parent_id
      where m.chat_id = ${chatId} and path.depth < ${limit}
    )
    select id from path)`;
}

/** The query of `branchRows`, with values or a prepared query's placeholders. */
const branchQuery = (db: Pick<Db, "select">, chatId: Value, start: SQL, limit: Value) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), onPathUp(chatId, start, limit)))
    .orderBy(asc(messages.id));

/** The branch ending at `start`, oldest first: its newest `limit` messages (all of them with the root when fewer). */
export async function branchRows(db: Reader, chatId: number, start: SQL, limit: number): Promise<MessageRow[]> {
  return branchQuery(db, chatId, start, limit);
}

const shownBranch = preparedPerDb((db) => {
  const [userId, chatId, limit] = [sql.placeholder("userId"), sql.placeholder("chatId"), sql.placeholder("limit")];
  return branchQuery(db, chatId, shownLeaf(userId, chatId), limit).prepare("shown_branch_rows");
});

/** `branchRows` of the branch shown (what a reply sends the model), as a prepared query. */
export async function shownBranchRows(db: Db, userId: number, chatId: number, limit: number): Promise<MessageRow[]> {
  return shownBranch(db).execute({ userId, chatId, limit });
}

/**
 * The library files a message names that are gone (deleted since): a left join on read, per row of the same query
 * (no second query), reading nothing for a message without library files (issue 30).
 */
export const missingFilesOf = sql<number[] | null>`(
  select array_agg((a.value->>'fileId')::int) from jsonb_array_elements(messages.attachments) a
  left join knowledge_files f on f.id = (a.value->>'fileId')::int and f.user_id = messages.user_id
  where a.value->>'fileId' is not null and f.id is null)`;

/**
 * The same, each message with the ids of its siblings (itself included, oldest first), in one query. Roots are
 * siblings too (an edited first message): the second lookup answers them, the first all the others.
 */
export async function branchWithSiblings(db: Db, chatId: number, start: SQL, limit: number) {
  return db
    .select({
      message: messages,
      // Written out: Drizzle leaves a column of a one-table select unqualified, which the subquery would read as its own.
      siblingIds: sql<number[]>`coalesce(
        (select array_agg(s.id order by s.id) from messages s where s.chat_id = ${chatId} and s.parent_id = messages.parent_id),
        (select array_agg(s.id order by s.id) from messages s where s.chat_id = ${chatId} and s.parent_id is null and messages.parent_id is null)
      )`,
      missingFileIds: missingFilesOf,
    })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), onPathUp(chatId, start, limit)))
    .orderBy(asc(messages.id));
}

/** The newest descendant of a message of this chat (newest child at each step), or null when it is not in the chat. */
export async function newestLeafUnder(db: Reader, chatId: number, messageId: number): Promise<number | null> {
  const result = await db.execute(sql`
    with recursive down(id) as (
      select m.id from messages m where m.id = ${messageId} and m.chat_id = ${chatId}
      union all
      select child.id from down cross join lateral (
        select c.id from messages c where c.chat_id = ${chatId} and c.parent_id = down.id order by c.id desc limit 1
      ) child
    )
    select max(id) as id from down`);
  const id = (result.rows[0] as { id: number | string | null } | undefined)?.id;
  return id === null || id === undefined ? null : Number(id);
}

/** A message of a branch shown, as a course made from chats reads it (issue 31). */
export interface ShownBranchMessage {
  chatId: number;
  chatTitle: string;
  messageId: number;
  role: string;
  content: string;
}

type BranchMessageRow = { chat_id: number | string; title: string; id: number | string; role: string; content: string };

/**
 * The branches shown of the owner's chats: one chat (`chatId`) or every chat of one folder (`folderId`), each oldest
 * first, chats in order of id; one query. The owner is in the filter: another user's chat or folder gives nothing.
 */
export async function shownBranchesOf(
  db: Reader,
  userId: number,
  scope: { chatId: number } | { folderId: number },
): Promise<ShownBranchMessage[]> {
  const which = "chatId" in scope ? sql`c.id = ${scope.chatId}::int` : sql`c.folder_id = ${scope.folderId}::int`;
  const result = await db.execute(sql`
    with recursive path(id, parent_id, chat_id) as (
      select m.id, m.parent_id, m.chat_id from chats c join messages m on m.id = ${leafOfChat} and m.chat_id = c.id
      where c.user_id = ${userId}::int and ${which}
      union all
      select m.id, m.parent_id, m.chat_id from messages m join path on m.id = path.parent_id and m.chat_id = path.chat_id
    )
    select m.chat_id, c.title, m.id, m.role, m.content
    from path join messages m on m.id = path.id join chats c on c.id = m.chat_id
    order by m.chat_id, m.id`);
  return (result.rows as BranchMessageRow[]).map((row) => ({
    chatId: Number(row.chat_id),
    chatTitle: row.title,
    messageId: Number(row.id),
    role: row.role,
    content: row.content,
  }));
}
