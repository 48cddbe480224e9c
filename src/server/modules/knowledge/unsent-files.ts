import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.js";
import type { FileStore, StoredFileRef } from "./file-store.js";

// A file attached in the chat composer is the message's until the message is sent (decision 068): uploaded with
// `purpose=message`, it is "unsent" (`unsent_until` set) and counts against the plan like any file, since its bytes are
// stored. Taken off the composer, the browser deletes it (decision 038). Sent, it becomes a library file like any
// other. Left unsent (a closed tab, a crash, a lost connection), the housekeeping sweep deletes it once its time is up.

/** How long a file attached to a message not sent yet is kept. */
export const UNSENT_FILE_LIFETIME = "24 hours";

/** The deadline of a file uploaded for a message now, in the database's own clock. */
export const unsentDeadline = () => sql`now() + interval '${sql.raw(UNSENT_FILE_LIFETIME)}'`;

/** The user's files a stored message took (a send or an edit): library files from now on, never swept. */
export async function keepSentFiles(db: DbOrTx, userId: number, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  await db.execute(sql`
    update knowledge_files set unsent_until = null
    where user_id = ${userId} and unsent_until is not null
      and id = any(string_to_array(${fileIds.join(",")}, ',')::int[])`);
}

type SweptRow = { id: number | string; storage: string; storage_key: string | null };

/**
 * Files attached to a message that was never sent, past their time: deleted (their bytes, pieces and vectors go with
 * the row; an object in the object store after it). A file a stored message names is kept instead (its send was
 * stored but the process ended before it said so), so a sent file is never swept. Run at start and every hour with
 * the temporary chats' sweep (app.ts): the deadline is in the row, so a restart loses nothing. Returns how many went.
 */
export async function sweepUnsentFiles(db: Db, fileStore: FileStore, log?: (message: string, error: unknown) => void): Promise<number> {
  const result = await db.execute<SweptRow>(sql`
    with expired as (
      select f.id,
        exists (
          select 1 from messages m join chats c on c.id = m.chat_id
          where c.user_id = f.user_id and m.attachments @> jsonb_build_array(jsonb_build_object('fileId', f.id))
        ) as sent
      from knowledge_files f
      where f.unsent_until is not null and f.unsent_until < now()
      for update of f skip locked
    ),
    kept as (
      update knowledge_files set unsent_until = null from expired where knowledge_files.id = expired.id and expired.sent
    )
    delete from knowledge_files using expired
    where knowledge_files.id = expired.id and not expired.sent
    returning knowledge_files.id, knowledge_files.storage, knowledge_files.storage_key`);
  const refs: StoredFileRef[] = result.rows.map((row) => ({ id: Number(row.id), storage: row.storage, storageKey: row.storage_key }));
  // The rows are gone, so an object left behind is only space: logged, never retried.
  if (refs.length > 0) await fileStore.remove(refs).catch((error) => log?.("removing unsent files' bytes failed", error));
  return refs.length;
}
