import { sql } from "drizzle-orm";
import type { Database } from "../src/server/db/client.js";

/**
 * A user's chats at the size of a large export, in bulk SQL: `chats` chats sharing `messages` messages, each about
 * 600 characters with quotes, a backslash, a new line, accents, Japanese and an emoji (what JSON escapes and what
 * it does not). A chain per chat, except every fourth reply, which answers the same message as the reply before it
 * (a branch: the earlier reply is left a dead end); each chat shows its newest message. The export benches and their EXPLAIN share it.
 */
export async function seedExportChats(database: Database, userId: number, messages: number, chats: number): Promise<void> {
  const { db } = database;
  const perChat = Math.ceil(messages / chats);
  await db.execute(sql`
    insert into chats (user_id, title, ai_platform, model)
    select ${userId}, 'Chat ' || g || ': "quotes", café & <tags>', 'openai', 'gpt-4o' from generate_series(1, ${chats}) g`);
  await db.execute(sql`
    insert into messages (chat_id, user_id, role, content, model, platform_slug, created_at)
    select c.id, ${userId}, case when g % 2 = 1 then 'user' else 'assistant' end,
           'Message ' || g || E' says "hello" \\\\ naïve café, 日本語 and 🙂.\\n' ||
             repeat('A line of ordinary words that makes the message as long as a real one. ', 8),
           case when g % 2 = 0 then 'gpt-4o' end, case when g % 2 = 0 then 'openai' end,
           timestamp '2025-01-02' + (g || ' seconds')::interval
    from chats c cross join generate_series(1, ${perChat}) g
    where c.user_id = ${userId} order by c.id, g`);
  await db.execute(sql`
    update messages m set parent_id = p.parent from (
      select id, case when (row_number() over w) % 8 = 0 then lag(id, 3) over w else lag(id) over w end as parent
      from messages where user_id = ${userId} window w as (partition by chat_id order by id)
    ) p where m.id = p.id`);
  // Each chat shows its newest message, as the app leaves it.
  await db.execute(
    sql`update chats c set active_leaf_id = (select max(m.id) from messages m where m.chat_id = c.id) where c.user_id = ${userId}`,
  );
  await db.execute(sql`analyze`);
}
