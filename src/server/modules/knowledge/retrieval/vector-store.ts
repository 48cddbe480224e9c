import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { createEmbeddingsTable, createVectorExtension } from "../../../db/vector-table.js";

/**
 * The vectors of the knowledge library (decisions 033, 036): pgvector where it is, made at start rather than by a
 * Drizzle migration, since the `vector` type exists only where the extension is installed. One table holds every
 * model's vectors (`model`, `dims`), with an HNSW index per size (`embedding::vector(<dims>)`, partial on `dims`:
 * pgvector's documented way for vectors of mixed sizes), made when vectors of that size are first written.
 * Where pgvector is missing (Debian 12's PostgreSQL 15), it says so once and `available` stays false: retrieval is
 * full text only.
 */
export class VectorStore {
  private ready = false;
  private readonly indexed = new Set<number>();

  constructor(
    private readonly options: {
      db: Db;
      log?: (message: string, error?: unknown) => void;
    },
  ) {}

  /** pgvector is installed and the table exists. */
  get available(): boolean {
    return this.ready;
  }

  /** At start: the extension, the table; never throws (a database without pgvector falls back to full text). */
  async start(): Promise<void> {
    const { db } = this.options;
    try {
      await createVectorExtension(db);
    } catch (error) {
      this.ready = false;
      this.options.log?.(`pgvector is not installed on this database: retrieval uses full-text search only (${(error as Error).message})`);
      return;
    }
    await createEmbeddingsTable(db);
    const sizes = await db.execute(sql`select distinct dims from knowledge_embeddings`);
    for (const row of sizes.rows as { dims: number | string }[]) await this.ensureIndex(Number(row.dims));
    this.ready = true;
  }

  /**
   * The HNSW index for vectors of `dims` (made once per size, `if not exists`, so every instance may ask). pgvector
   * indexes `vector` up to 2,000 dimensions: larger ones are searched without an index.
   */
  async ensureIndex(dims: number): Promise<void> {
    if (this.indexed.has(dims)) return;
    if (!Number.isInteger(dims) || dims < 1) throw new Error(`bad vector size ${dims}`);
    if (dims <= 2000) {
      try {
        await this.options.db.execute(
          sql.raw(`create index if not exists knowledge_embeddings_hnsw_${dims} on knowledge_embeddings
            using hnsw ((embedding::vector(${dims})) vector_cosine_ops) where dims = ${dims}`),
        );
      } catch (error) {
        // Two instances making it at once: one wins, the other's "already exists" is the same index.
        if (!/already exists/i.test((error as Error).message)) throw error;
      }
    }
    this.indexed.add(dims);
  }
}

/** A vector as pgvector's text form: `[0.1,0.2,...]`. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;
}
