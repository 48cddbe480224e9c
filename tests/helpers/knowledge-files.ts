import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/server/db/client.js";
import { knowledgeFiles } from "../../src/server/db/schema/index.js";
import type { KnowledgeFile } from "../../src/shared/contracts/knowledge.js";
import type { CookieClient } from "./build-test-app.js";

export type FileRow = typeof knowledgeFiles.$inferSelect;

const MIME: Record<string, string> = {
  markdown: "text/markdown",
  text: "text/plain",
  pdf: "application/pdf",
  image: "image/png",
  html: "text/html",
};

/**
 * A library file as the upload leaves it (a queued row and its bytes; here in one transaction), inserted straight into
 * the tables: the ingestion and retrieval tests do not depend on the files API.
 */
export async function insertFile(
  app: FastifyInstance,
  options: { userId: number; name: string; bytes: Uint8Array | string; kind?: string; collectionId?: number | null; noBytes?: boolean },
): Promise<number> {
  const bytes = typeof options.bytes === "string" ? new TextEncoder().encode(options.bytes) : options.bytes;
  const kind = options.kind ?? "markdown";
  return app.ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(knowledgeFiles)
      .values({
        userId: options.userId,
        collectionId: options.collectionId ?? null,
        name: options.name,
        mimeType: MIME[kind] ?? "text/plain",
        kind,
        byteSize: bytes.byteLength,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      })
      .returning({ id: knowledgeFiles.id });
    if (!row) throw new Error("no file row");
    if (!options.noBytes) await app.ctx.fileStore.put(tx, { id: row.id, userId: options.userId }, bytes);
    return row.id;
  });
}

export async function fileRow(db: Db, id: number): Promise<FileRow> {
  const [row] = await db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, id));
  if (!row) throw new Error(`no file ${id}`);
  return row;
}

export async function countOf(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const result = await db.execute(query);
  return Number((result.rows[0] as { n: number | string }).n);
}

export const chunksOf = (db: Db, fileId: number) => countOf(db, sql`select count(*) as n from knowledge_chunks where file_id = ${fileId}`);
export const embeddingsOf = (db: Db, fileId: number) =>
  countOf(
    db,
    sql`select count(*) as n from knowledge_embeddings e join knowledge_chunks c on c.id = e.chunk_id where c.file_id = ${fileId}`,
  );

/** A Markdown document of `sections` sections of about `words` words each, on the given topic words. */
export function markdownDocument(title: string, sections: number, words: number, vocabulary: string[]): string {
  const parts = [`# ${title}`];
  for (let s = 0; s < sections; s++) {
    parts.push(`## Section ${s + 1}`);
    const body: string[] = [];
    for (let w = 0; w < words; w++) body.push(vocabulary[(s * 7 + w * 3) % vocabulary.length] ?? "word");
    parts.push(`${body.join(" ")}.`);
  }
  return parts.join("\n\n");
}

/** Asks the files API for a file until the ingestion worker has finished with it (ready or failed), or a minute passed. */
export async function settledFile(client: CookieClient, id: number): Promise<KnowledgeFile> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const file = (await client.get(`/api/files/${id}`)).json() as KnowledgeFile;
    if (file.status === "ready" || file.status === "failed" || Date.now() > deadline) return file;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
