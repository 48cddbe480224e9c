import { sql } from "drizzle-orm";
import type { ChatSearchHit, TutorLessonRef } from "../../../shared/contracts/chat.js";
import { cleanProviderText } from "../../ai/clean-text.js";
import type { Db } from "../../db/client.js";
import type { Who } from "../../lib/who.js";
import { toChat, tutorLessonColumn } from "./chat-view.js";
import { assertOwnFolder } from "./folders-service.js";
import { listedChatAs } from "./listed-chat.js";

/** Search words become prefix terms ("mark" finds "markdown"), all required; punctuation is dropped. */
export function toTsQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `${w}:*`).join(" & ") : null;
}

/** A piece of plain text around the first word that matched. */
export function snippetOf(content: string, text: string): string {
  const lower = content.toLowerCase();
  const word =
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .find(Boolean) ?? "";
  const at = Math.max(0, word ? lower.indexOf(word) : 0);
  const start = Math.max(0, at - 40);
  // Cut by UTF-16 units, so an end may fall inside an emoji: its lone half is dropped.
  const piece = cleanProviderText(content.slice(start, start + 140))
    .replace(/\s+/g, " ")
    .trim();
  return `${start > 0 ? "..." : ""}${piece}${start + 140 < content.length ? "..." : ""}`;
}

/**
 * Chats whose title or message text match, through the GIN indexes on both
 * (no LIKE scan): the newest matching message per chat supplies the snippet.
 * With `folderId` (one of the caller's folders, else 404), only that folder's chats.
 */
export async function searchChats(options: {
  db: Db;
  who: Who;
  q: string;
  limit: number;
  folderId?: number | undefined;
}): Promise<ChatSearchHit[]> {
  const { limit, folderId } = options;
  const userId = options.who.id;
  if (folderId !== undefined) await assertOwnFolder(options.db, userId, folderId);
  const query = toTsQuery(options.q);
  if (!query) return [];
  const inFolder = folderId === undefined ? sql`` : sql`and c.folder_id = ${folderId}`;
  const result = await options.db.execute(sql`
    with     -- The newest matching messages, bounded: a word found in most messages then costs a short
    -- backward walk of the primary key instead of collecting every match. The tsquery is written
    -- inline (not in a CTE) so the planner can tell a rare word from a common one.
    by_message as (
      select chat_id, max(id) as message_id from (
        select m.chat_id, m.id from messages m
        where m.content_search @@ to_tsquery('simple', ${query}) and m.user_id = ${userId}
        order by m.id desc limit 2000
      ) recent
      group by chat_id
    ),
    by_title as (
      select c.id as chat_id from chats c where c.title_search @@ to_tsquery('simple', ${query}) and c.user_id = ${userId}
    ),
    hits as (
      select c.*, bm.message_id
      from chats c
      left join by_message bm on bm.chat_id = c.id
      where c.user_id = ${userId} and ${listedChatAs("c")} ${inFolder}
        and (c.id in (select chat_id from by_title) or bm.message_id is not null)
      order by c.updated_at desc, c.id desc
      limit ${limit}
    )
    select h.id, h.title, h.ai_platform, h.model, h.temporary, h.personality_id, h.folder_id, h.pinned_at, h.tools,
           h.created_at, h.updated_at, ${tutorLessonColumn(sql.raw("h.tutor_lesson_id"))} as tutor_lesson,
           (select array_agg(cc.collection_id order by cc.collection_id) from chat_collections cc where cc.chat_id = h.id) as collection_ids,
           left(m.content, 20000) as content
    from hits h left join messages m on m.id = h.message_id
    order by h.updated_at desc, h.id desc`);
  return (result.rows as Record<string, unknown>[]).map((row) => ({
    ...toChat({
      id: Number(row.id),
      title: String(row.title),
      aiPlatform: String(row.ai_platform),
      model: (row.model as string | null) ?? null,
      temporary: Boolean(row.temporary),
      personalityId: row.personality_id === null ? null : Number(row.personality_id),
      folderId: row.folder_id === null ? null : Number(row.folder_id),
      pinnedAt: row.pinned_at === null ? null : new Date(row.pinned_at as string),
      tools: (typeof row.tools === "string" ? JSON.parse(row.tools) : row.tools) ?? [],
      createdAt: new Date(row.created_at as string),
      updatedAt: new Date(row.updated_at as string),
      collectionIds: (row.collection_ids as number[] | null) ?? null,
      tutorLesson: (row.tutor_lesson as TutorLessonRef | string | null) ?? null,
    }),
    snippet: typeof row.content === "string" ? snippetOf(row.content, options.q) : null,
  }));
}
