import { sql } from "drizzle-orm";
import type { DbOrTx } from "./client.js";

/**
 * The knowledge library's vector table (decisions 033, 036) is made at start rather than by a Drizzle migration: the
 * `vector` type exists only where pgvector is installed. Its one home, for the server (`VectorStore`) and for a
 * restore that brings vectors along (`db/backup`).
 */

/** pgvector; throws where it is not installed. */
export async function createVectorExtension(db: DbOrTx): Promise<void> {
  try {
    await db.execute(sql`create extension if not exists vector`);
  } catch (error) {
    // Two instances creating it at once: the loser sees a duplicate; the extension is there.
    if (!/already exists|duplicate key/i.test((error as Error).message)) throw error;
  }
}

/** The table and its per-user index (the HNSW indexes per size are the server's, `VectorStore.ensureIndex`). */
export async function createEmbeddingsTable(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    create table if not exists knowledge_embeddings (
      chunk_id integer primary key references knowledge_chunks(id) on delete cascade,
      user_id integer not null,
      model text not null,
      dims integer not null,
      embedding vector not null
    )`);
  await db.execute(sql`create index if not exists knowledge_embeddings_user_idx on knowledge_embeddings (user_id, model)`);
}
