import { sql } from "drizzle-orm";
import type { Database } from "../../src/server/db/client.js";

/** The text of the long chat's last message, which the benches and the browser test wait for. */
export const LAST_MESSAGE_TEXT = "The very last message of the long conversation.";
/** The first message's text, for scrolling up to the oldest. */
export const FIRST_MESSAGE_TEXT = "Message 1 of the long conversation";

/**
 * One chat of `count` messages for a user, written in bulk SQL: users and replies in turn, each message the
 * child of the one before (the message tree of edit and branch), the oldest first, the last one
 * LAST_MESSAGE_TEXT. Every `codeEvery`-th reply (none when 0) holds a fenced TypeScript block, for highlighting.
 */
export async function seedLongChat(database: Database, userId: number, count: number, codeEvery = 0): Promise<number> {
  const { db } = database;
  const made = await db.execute(sql`
    insert into chats (user_id, title, ai_platform, updated_at) values (${userId}, 'Long conversation', 'openai', now() - interval '1 year') returning id`);
  const chatId = Number((made.rows[0] as { id: number }).id);
  await db.execute(sql`
    insert into messages (chat_id, user_id, role, content)
    select ${chatId}, ${userId}, case when g % 2 = 1 then 'user' else 'assistant' end,
           case when g = ${count}::int then ${LAST_MESSAGE_TEXT}::text
                when g % 2 = 0 and ${codeEvery}::int > 0 and (g / 2) % ${Math.max(codeEvery, 1)}::int = 0
                  then 'Reply ' || g || ' with code:' || chr(10) || chr(10) || repeat(chr(96), 3) || 'ts' || chr(10) || 'const answer' || g || ' = 42;' || chr(10) || repeat(chr(96), 3)
                else 'Message ' || g || ' of the long conversation, with a few words to make it a realistic line.' end
    from generate_series(1, ${count}) g order by g`);
  await db.execute(sql`
    update messages m set parent_id = p.prev from (
      select id, lag(id) over (order by id) as prev from messages where chat_id = ${chatId}
    ) p where m.id = p.id and m.chat_id = ${chatId}`);
  return chatId;
}
