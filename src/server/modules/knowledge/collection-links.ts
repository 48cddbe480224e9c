import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";

export const COLLECTION_NOT_FOUND = "Collection not found";

/** The link tables that attach collections (issue 30): a chat's, a personality's. */
type LinkTable =
  | { table: "chat_collections"; key: "chat_id"; id: number }
  | { table: "personality_collections"; key: "personality_id"; id: number };

/**
 * Replaces the collections attached to a chat or a personality (the caller has locked its row, the owner's): each must
 * be the caller's, else the same 404 as a missing one (the collections are locked until the links are stored, so a
 * parallel delete cannot break them). `[]` detaches all.
 */
export async function setCollections(tx: DbOrTx, link: LinkTable, userId: number, collectionIds: readonly number[]): Promise<void> {
  const ids = sql`string_to_array(${collectionIds.join(",")}, ',')::int[]`;
  if (collectionIds.length > 0) {
    const own = await tx.execute(sql`select id from knowledge_collections where user_id = ${userId} and id = any(${ids}) for share`);
    if (own.rows.length !== collectionIds.length) throw new AppError("NOT_FOUND", COLLECTION_NOT_FOUND);
  }
  const table = sql.identifier(link.table);
  const key = sql.identifier(link.key);
  await tx.execute(sql`delete from ${table} where ${key} = ${link.id} and not (collection_id = any(${ids}))`);
  if (collectionIds.length > 0) {
    await tx.execute(sql`insert into ${table} (${key}, collection_id) select ${link.id}, unnest(${ids}) on conflict do nothing`);
  }
}
