import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.js";
import { knowledgeFileBytes } from "../../db/schema/index.js";

/** Where a stored file's bytes are (the file row's `storage` and `storageKey`). */
export interface StoredFileRef {
  id: number;
  storage: string;
  storageKey: string | null;
}

/**
 * A library file's bytes (issue 30): in PostgreSQL by default (decision 003), in an S3-compatible object store when
 * `S3_*` is set. `put` runs inside the transaction that creates the file's row, so a file never exists without its
 * bytes; `remove` is called after the row is gone.
 */
export interface FileStore {
  readonly kind: "db" | "s3";
  put(tx: DbOrTx, file: { id: number; userId: number }, bytes: Uint8Array): Promise<{ storage: "db" | "s3"; storageKey: string | null }>;
  read(file: StoredFileRef): Promise<Uint8Array>;
  remove(files: StoredFileRef[]): Promise<void>;
}

/** The bytes in the database: a row of `knowledge_file_bytes`, deleted with the file's row by its foreign key. */
export function databaseFileStore(db: Db): FileStore {
  return {
    kind: "db",
    async put(tx, file, bytes) {
      await tx.insert(knowledgeFileBytes).values({ fileId: file.id, data: bytes });
      return { storage: "db", storageKey: null };
    },
    async read(file) {
      const [row] = await db
        .select({ data: knowledgeFileBytes.data })
        .from(knowledgeFileBytes)
        .where(eq(knowledgeFileBytes.fileId, file.id));
      if (!row) throw new Error(`file ${file.id} has no bytes`);
      return row.data;
    },
    async remove() {
      // The row's foreign key removed the bytes with it.
    },
  };
}
