import { createHash } from "node:crypto";
import type { Db } from "../../src/server/db/client.js";
import { knowledgeChunks, knowledgeCollections, knowledgeFileBytes, knowledgeFiles } from "../../src/server/db/schema/index.js";

/**
 * Library rows written directly (status as asked, pieces given), so chat tests exercise files and retrieval without
 * the ingestion's worker: what a finished ingestion leaves.
 */
export async function seedCollection(db: Db, userId: number, name = "Biology 101"): Promise<number> {
  const [row] = await db.insert(knowledgeCollections).values({ userId, name }).returning({ id: knowledgeCollections.id });
  if (!row) throw new Error("no collection");
  return row.id;
}

export interface SeedFile {
  userId: number;
  name: string;
  kind?: string;
  mimeType?: string;
  status?: "queued" | "processing" | "ready" | "failed";
  error?: string | null;
  collectionId?: number | null;
  /** The pieces, in order (page and heading optional). */
  chunks?: { content: string; page?: number | null; headingPath?: string }[];
  /** The whole text's tokens (default: the pieces' own sum). */
  tokens?: number;
  bytes?: Uint8Array;
}

const tokensOf = (text: string) => Math.ceil(text.split(/\s+/).filter(Boolean).length * 1.3);

export async function seedFile(db: Db, file: SeedFile): Promise<number> {
  const bytes = file.bytes ?? new TextEncoder().encode((file.chunks ?? []).map((c) => c.content).join("\n\n"));
  const chunks = file.chunks ?? [];
  const [row] = await db
    .insert(knowledgeFiles)
    .values({
      userId: file.userId,
      collectionId: file.collectionId ?? null,
      name: file.name,
      mimeType: file.mimeType ?? "text/markdown",
      kind: file.kind ?? "markdown",
      byteSize: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      status: file.status ?? "ready",
      error: file.error ?? null,
      tokens: file.tokens ?? chunks.reduce((sum, c) => sum + tokensOf(c.content), 0),
      pages: chunks.some((c) => c.page) ? Math.max(...chunks.map((c) => c.page ?? 0)) : null,
    })
    .returning({ id: knowledgeFiles.id });
  if (!row) throw new Error("no file");
  await db.insert(knowledgeFileBytes).values({ fileId: row.id, data: bytes });
  if (chunks.length) {
    await db.insert(knowledgeChunks).values(
      chunks.map((c, i) => ({
        fileId: row.id,
        userId: file.userId,
        chunkIndex: i,
        page: c.page ?? null,
        headingPath: c.headingPath ?? "",
        content: c.content,
        tokens: tokensOf(c.content),
      })),
    );
  }
  return row.id;
}
