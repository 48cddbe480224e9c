import { sql } from "drizzle-orm";
import type { Database } from "../src/server/db/client.js";
import { seedLongChat } from "../tests/helpers/seed-long-chat.js";

export const CHATS = 10_000;
export const FOLDERS = 200;
export const PER_FOLDER = 40;
export const PINNED = 20;
export const LONG_CHAT_MESSAGES = 2_000;

/**
 * One user's sidebar at scale, in bulk SQL: CHATS chats (a message each, so they are listed) in FOLDERS folders
 * (PER_FOLDER each; the rest in none), PINNED of them pinned, and one chat of LONG_CHAT_MESSAGES messages. Returns the
 * long chat's id. The benches of the first screens (sidebar.ts, first-screens.ts) share it.
 */
export async function seedManyChats(database: Database, userId: number): Promise<number> {
  const { db } = database;
  await db.execute(
    sql`insert into chat_folders (user_id, name) select ${userId}, 'Folder ' || lpad(g::text, 3, '0') from generate_series(1, ${FOLDERS}) g`,
  );
  await db.execute(sql`
    with folders as (select id, row_number() over (order by id) - 1 as n from chat_folders where user_id = ${userId})
    insert into chats (user_id, title, ai_platform, folder_id, pinned_at, updated_at)
    select ${userId}, 'Chat number ' || g, (array['openai','anthropic-claude','deepseek','mistral'])[1 + g % 4],
           (select id from folders where n = (g - 1) / ${PER_FOLDER} and g <= ${FOLDERS * PER_FOLDER}),
           case when g % ${CHATS / PINNED} = 0 then now() - (g || ' seconds')::interval end,
           now() - ((${CHATS} - g) || ' minutes')::interval
    from generate_series(1, ${CHATS}) g`);
  await db.execute(
    sql`insert into messages (chat_id, user_id, role, content) select id, user_id, 'user', title from chats where user_id = ${userId}`,
  );
  const longId = await seedLongChat(database, userId, LONG_CHAT_MESSAGES);
  await db.execute(sql`analyze`);
  return longId;
}
