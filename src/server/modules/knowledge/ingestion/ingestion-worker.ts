import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { embedTexts } from "../../../ai/embed.js";
import type { Db } from "../../../db/client.js";
import { knowledgeChunks, knowledgeFiles } from "../../../db/schema/index.js";
import { AppError } from "../../../lib/app-error.js";
import { gently, letOthersIn } from "../../../lib/gentle-statements.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { type EmbeddingConfig, readEmbeddingConfig } from "../embedding-settings-service.js";
import type { FileStore } from "../file-store.js";
import { extractChunks } from "../reading/extract-text.js";
import type { FileKind } from "../reading/file-kind.js";
import { ReadingError } from "../reading/reading-error.js";
import { type VectorStore, vectorLiteral } from "../retrieval/vector-store.js";
import { describeFailure, retryDelayMs } from "./ingestion-retry.js";
import { onIngestionWake } from "./wake.js";

export interface IngestionTiming {
  /** How often the queue is looked at (wakeIngestion() on this instance also wakes it at once). */
  tickMs: number;
  /** How often a file being read says it is still being read. */
  heartbeatMs: number;
  /** A claim without a heartbeat for this long belongs to an instance that died: it is taken over. */
  staleClaimMs: number;
  /** Files read at once by this instance. */
  concurrency: number;
  /** Pieces embedded per provider request. */
  embedBatch: number;
  /** Tries before a file gives up (failed, or ready with full text only once its pieces are stored). */
  maxAttempts: number;
  /** The first retry waits this long, then the wait doubles... */
  baseDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** A file left with full text only (its vectors failed, or its owner's tokens ran out) is tried again after this. */
  vectorsLaterMs: number;
}

/** 5 tries over about 10 minutes: 20 s, 40 s, 80 s, 160 s, 320 s. */
export const DEFAULT_INGESTION_TIMING: IngestionTiming = {
  tickMs: 3000,
  heartbeatMs: 3000,
  staleClaimMs: 30_000,
  concurrency: 2,
  embedBatch: 64,
  maxAttempts: 5,
  baseDelayMs: 20_000,
  maxDelayMs: 5 * 60_000,
  vectorsLaterMs: 60 * 60_000,
};

type FileRow = typeof knowledgeFiles.$inferSelect;

/**
 * Pieces written per statement: PGlite runs each on the event loop (their full-text index entries too), a few
 * milliseconds for 50, and the loop gets a turn between them (lib/gentle-statements.ts).
 */
const PIECES_PER_STATEMENT = 50;
/**
 * Vectors written per statement (see embed()): each is an HNSW insert, several milliseconds for 1,536 dimensions on
 * PGlite and more as the graph grows (bench/ingest), so one a statement, with a turn of the loop and a rest after it.
 */
const VECTORS_PER_STATEMENT = 1;

/** This instance lost the file (its heartbeat stopped and another took it over, or it was deleted): stop quietly. */
class LostClaim extends Error {}

/**
 * Reads the knowledge library's files, in the app process (decision 036). The job is the file's row (decision 033):
 * claimed atomically with `FOR UPDATE SKIP LOCKED` (queued files, files waiting for a retry, and files whose owner
 * stopped beating for `staleClaimMs`), beaten every few seconds while worked on. Steps: read the bytes, extract and
 * chunk them (in a reader thread), store the pieces in one transaction (delete then insert, so a rerun after kill -9
 * duplicates nothing), then embed them in batches (a rerun skips pieces already embedded with the model in use), a few
 * vectors a statement with a rest between them, then
 * ready. The same claim re-embeds ready files whose vectors come from another model (the admin changed it); they stay
 * ready meanwhile.
 */
export class IngestionWorker {
  readonly instanceId: string;
  readonly timing: IngestionTiming;
  readonly stats = { ready: 0, failed: 0, retried: 0, reindexed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private readonly working = new Map<number, Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private closed = true;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly options: {
      db: Db;
      fileStore: FileStore;
      vectors: VectorStore;
      platformDeps: PlatformDeps;
      instanceId?: string;
      /** True when no other instance can be running (no Redis): every claim found at start is an orphan. */
      singleInstance?: boolean;
      timing?: Partial<IngestionTiming>;
      log?: (message: string, error?: unknown) => void;
    },
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.timing = { ...DEFAULT_INGESTION_TIMING, ...options.timing };
  }

  async start(): Promise<void> {
    this.closed = false;
    if (this.options.singleInstance) {
      // Files a previous run of this (only) instance was reading when it died: resume them now, not in 30 s.
      // Each counts as a try (issue 30 review): a file that kills the process is not read again and again for ever.
      await this.options.db.execute(
        sql`update knowledge_files set claimed_by = null, heartbeat_at = null, attempts = attempts + 1 where claimed_by is not null`,
      );
    }
    this.stopListening = onIngestionWake(() => this.schedule(10));
    this.schedule(0);
  }

  /** Stops claiming and ends the files in flight where they are (they resume on the next start or elsewhere). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopListening?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const abort of this.aborts) abort.abort();
    await Promise.allSettled([...this.working.values()]);
    // What was under way here is handed back, so the next start (or another instance) resumes it at once.
    await this.options.db
      .execute(sql`update knowledge_files set claimed_by = null, heartbeat_at = null where claimed_by = ${this.instanceId}`)
      .catch((error) => this.options.log?.("handing back files being read failed", error));
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.fill().catch((error) => this.options.log?.("ingestion worker failed to claim", error));
    }, delayMs);
    this.timer.unref();
  }

  /** Claims files while there is room; each one ends by looking again. */
  private async fill(): Promise<void> {
    while (!this.closed && this.working.size < this.timing.concurrency) {
      const file = await this.claim();
      if (!file) break;
      const work = this.process(file)
        .catch((error) => this.options.log?.(`ingesting file ${file.id} failed`, error))
        .finally(() => {
          this.working.delete(file.id);
          this.schedule(0);
        });
      this.working.set(file.id, work);
    }
    if (this.working.size === 0) this.schedule(this.timing.tickMs);
  }

  /** Runs the queue until nothing is due (tests call it to run the queue at once, without the timer). */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const file = await this.claim();
      if (!file) return handled;
      await this.process(file);
      handled += 1;
    }
  }

  /**
   * One due file becomes this instance's, in one statement: queued or waiting for a retry, a claim whose owner
   * stopped beating, or (an embedding model set) a file read with another model's vectors, whose status stays.
   */
  private async claim(): Promise<FileRow | undefined> {
    const { db } = this.options;
    const config = await readEmbeddingConfig(db, this.options.platformDeps);
    const reindexKey = config && this.options.vectors.available ? config.key : null;
    const staleSeconds = Math.max(1, Math.round(this.timing.staleClaimMs / 1000));
    const result = await db.execute(sql`
      with due as (
        select id from knowledge_files
        where next_attempt_at <= now()
          and (claimed_by is null or heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${staleSeconds}::int))
          and (status in ('queued', 'processing')
            or (${reindexKey}::text is not null and status = 'ready' and kind <> 'image' and progress_total > 0
                and embedding_model is distinct from ${reindexKey}::text))
          -- One file of a user's at a time, on every instance (issue 30 review): one user's many files or retries
          -- never hold every reader while others wait.
          and not exists (
            select 1 from knowledge_files other
            where other.user_id = knowledge_files.user_id and other.id <> knowledge_files.id
              and other.claimed_by is not null
              and other.heartbeat_at >= now() - make_interval(secs => ${staleSeconds}::int))
        -- New uploads before re-embedding for a new model.
        order by (status = 'ready'), next_attempt_at, id
        limit 1
        for update skip locked
      )
      update knowledge_files as f
      set status = case when f.status = 'ready' then 'ready' else 'processing' end,
        -- Taking over a claim whose owner stopped beating counts as a try, as a restart does.
        attempts = f.attempts + case when f.claimed_by is not null then 1 else 0 end,
        claimed_by = ${this.instanceId}, heartbeat_at = now(), updated_at = now()
      from due
      where f.id = due.id
      returning f.id`);
    const id = (result.rows[0] as { id: number | string } | undefined)?.id;
    if (id === undefined) return undefined;
    const [row] = await db
      .select()
      .from(knowledgeFiles)
      .where(eq(knowledgeFiles.id, Number(id)));
    return row;
  }

  /** Sets columns on the file while it is still this instance's; a lost claim stops the work. */
  private async mine(fileId: number, set: Partial<typeof knowledgeFiles.$inferInsert>): Promise<void> {
    const rows = await this.options.db
      .update(knowledgeFiles)
      .set({ ...set, heartbeatAt: new Date(), updatedAt: new Date() })
      .where(and(eq(knowledgeFiles.id, fileId), eq(knowledgeFiles.claimedBy, this.instanceId)))
      .returning({ id: knowledgeFiles.id });
    if (rows.length === 0) throw new LostClaim();
  }

  private async process(file: FileRow): Promise<void> {
    const abort = new AbortController();
    this.aborts.add(abort);
    const beat = setInterval(() => {
      void this.options.db
        .update(knowledgeFiles)
        .set({ heartbeatAt: new Date() })
        .where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.claimedBy, this.instanceId)))
        .catch(() => {});
    }, this.timing.heartbeatMs);
    beat.unref();
    try {
      if (file.status === "processing" && file.attempts >= this.timing.maxAttempts) {
        // Its reading ended with its instance again and again (a restart or a takeover each time): set it aside.
        await this.mine(file.id, {
          status: "failed",
          stage: null,
          error: "Reading this file stopped several times, so it was set aside. Retry it, or upload another copy.",
          claimedBy: null,
          heartbeatAt: null,
        });
        return;
      }
      await this.work(file, abort.signal);
    } catch (error) {
      // A lost claim, or a close that ended the work here: the file resumes where it is.
      if (error instanceof LostClaim || abort.signal.aborted) return;
      await this.failed(file, error).catch((failure) => this.options.log?.(`recording file ${file.id}'s failure failed`, failure));
    } finally {
      clearInterval(beat);
      this.aborts.delete(abort);
    }
  }

  private async work(file: FileRow, signal: AbortSignal): Promise<void> {
    const { db } = this.options;
    if (file.kind === "image") {
      // Images go to models as images: nothing to read or search.
      await this.mine(file.id, { status: "ready", stage: null, error: null, claimedBy: null, heartbeatAt: null });
      this.stats.ready += 1;
      return;
    }
    const reindex = file.status === "ready";
    // Pieces are stored once "indexing" is written (one transaction): a rerun goes straight to the vectors.
    if (!reindex && file.stage !== "indexing") {
      await this.read(file);
      await letOthersIn();
      await this.mergeSearchIndex();
      await letOthersIn();
    }
    if (signal.aborted) throw new LostClaim();
    const config = await readEmbeddingConfig(db, this.options.platformDeps);
    const outcome = config && this.options.vectors.available ? await this.embed(file, config, signal, reindex) : "none";
    await this.mine(file.id, {
      status: "ready",
      stage: null,
      error: null,
      attempts: 0,
      claimedBy: null,
      heartbeatAt: null,
      ...(outcome === "done" && config ? { embeddingModel: config.key } : {}),
      ...(outcome === "none" ? { embeddingModel: null } : {}),
      ...(outcome === "later" ? { embeddingModel: null, nextAttemptAt: new Date(Date.now() + this.timing.vectorsLaterMs) } : {}),
    });
    if (reindex) this.stats.reindexed += 1;
    else this.stats.ready += 1;
  }

  /** Bytes → text → pieces, stored in one transaction with the file's pages and tokens (no duplicate on a rerun). */
  private async read(file: FileRow): Promise<void> {
    const { db, fileStore } = this.options;
    await this.mine(file.id, { stage: "reading", progressDone: 0, progressTotal: 0 });
    const bytes = await fileStore.read(file);
    const { chunks, pageCount } = await extractChunks(bytes, { kind: file.kind as FileKind, mime: file.mimeType });
    await db.transaction(async (tx) => {
      const owned = await tx
        .update(knowledgeFiles)
        .set({
          stage: "indexing",
          pages: pageCount,
          tokens: chunks.reduce((sum, c) => sum + c.tokens, 0),
          progressDone: 0,
          progressTotal: chunks.length,
          embeddingModel: null,
          heartbeatAt: new Date(),
          updatedAt: new Date(),
        })
        .where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.claimedBy, this.instanceId)))
        .returning({ id: knowledgeFiles.id });
      if (owned.length === 0) throw new LostClaim();
      await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id));
      for (let at = 0; at < chunks.length; at += PIECES_PER_STATEMENT) {
        // A turn of the loop between statements (not a rest: the transaction holds PGlite's one connection).
        await letOthersIn();
        await tx.insert(knowledgeChunks).values(
          chunks.slice(at, at + PIECES_PER_STATEMENT).map((chunk) => ({
            fileId: file.id,
            userId: file.userId,
            chunkIndex: chunk.index,
            page: chunk.page,
            headingPath: chunk.headingPath.join(" › "),
            content: chunk.text,
            tokens: chunk.tokens,
          })),
        );
      }
    });
  }

  /**
   * New pieces wait in the full-text index's pending list, which every search reads through until it is merged
   * (by autovacuum on PostgreSQL, which PGlite does not run): merged now, so searches stay fast after a large file.
   */
  private async mergeSearchIndex(): Promise<void> {
    await this.options.db
      .execute(sql`select gin_clean_pending_list('knowledge_chunks_search_idx'::regclass)`)
      .catch((error) => this.options.log?.("merging the full-text index's pending list failed", error));
  }

  /**
   * The pieces without a vector of the model in use, embedded a batch at a time, each batch's vectors and progress in
   * one transaction. "done": every piece has one; "later": the owner's tokens are used up (full text until then).
   */
  private async embed(file: FileRow, config: EmbeddingConfig, signal: AbortSignal, reindex: boolean): Promise<"done" | "later"> {
    const { db, vectors, platformDeps } = this.options;
    const counted = await db.execute(sql`
      select count(*)::int as total,
        count(e.chunk_id) filter (where e.model = ${config.key})::int as done
      from knowledge_chunks c left join knowledge_embeddings e on e.chunk_id = c.id
      where c.file_id = ${file.id}`);
    const counts = counted.rows[0] as { total: number | string; done: number | string };
    let done = Number(counts.done);
    const total = Number(counts.total);
    await this.mine(
      file.id,
      reindex ? { progressDone: done, progressTotal: total } : { stage: "indexing", progressDone: done, progressTotal: total },
    );
    for (;;) {
      if (signal.aborted) throw new LostClaim();
      await letOthersIn();
      const batch = await db.execute(sql`
        select c.id, c.content from knowledge_chunks c
        where c.file_id = ${file.id}
          and not exists (select 1 from knowledge_embeddings e where e.chunk_id = c.id and e.model = ${config.key})
        order by c.chunk_index
        limit ${this.timing.embedBatch}::int`);
      const rows = batch.rows as { id: number | string; content: string }[];
      if (rows.length === 0) return "done";
      let embeddings: number[][];
      try {
        ({ embeddings } = await embedTexts({
          access: config.access,
          modelId: config.modelId,
          texts: rows.map((row) => row.content),
          spend: { allowance: platformDeps.allowance, userId: file.userId },
          abortSignal: signal,
        }));
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 429) return "later";
        throw error;
      }
      const dims = embeddings[0]?.length ?? 0;
      if (dims === 0 || embeddings.length !== rows.length) throw new Error("the embedding model answered no vectors");
      await vectors.ensureIndex(dims);
      // Each statement on its own, outside a transaction, with a rest after it: on PGlite a transaction of them all
      // held the event loop for its whole length (lib/gentle-statements.ts). Each writes only while the file is
      // still this instance's; a rerun after a kill embeds what is missing, so a batch half written costs nothing.
      for (let at = 0; at < rows.length; at += VECTORS_PER_STATEMENT) {
        // A close (SIGTERM) stops between statements; the rerun embeds the rest.
        if (signal.aborted) throw new LostClaim();
        const values = rows
          .slice(at, at + VECTORS_PER_STATEMENT)
          .map(
            (row, i) =>
              sql`(${Number(row.id)}::int, ${file.userId}::int, ${config.key}::text, ${dims}::int, ${vectorLiteral(embeddings[at + i] ?? [])}::vector)`,
          );
        const written = await gently(() =>
          db.execute(sql`
            insert into knowledge_embeddings (chunk_id, user_id, model, dims, embedding)
            select * from (values ${sql.join(values, sql`, `)}) as v (chunk_id, user_id, model, dims, embedding)
            where exists (select 1 from knowledge_files where id = ${file.id}::int and claimed_by = ${this.instanceId})
            on conflict (chunk_id) do update set model = excluded.model, dims = excluded.dims, embedding = excluded.embedding
            returning chunk_id`),
        );
        if (written.rows.length === 0) throw new LostClaim();
      }
      done += rows.length;
      await this.mine(file.id, { progressDone: done });
    }
  }

  /**
   * A failure: a file that cannot be read fails at once with its reason, for good (no Retry); anything else (the provider down, the
   * database away) is tried again with a growing wait, and after the last try the file fails ("We could not index
   * this file...") or, when its pieces are stored and only the vectors failed, is ready with full text only.
   */
  private async failed(file: FileRow, error: unknown): Promise<void> {
    const { db } = this.options;
    const [now] = await db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id));
    if (!now || now.claimedBy !== this.instanceId) return;
    const release = { claimedBy: null, heartbeatAt: null, updatedAt: new Date() } as const;
    const where = and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.claimedBy, this.instanceId));
    if (error instanceof ReadingError) {
      // The same bytes fail the same way: not retryable (decision 068); the file keeps its place until deleted.
      await db
        .update(knowledgeFiles)
        .set({ ...release, status: "failed", stage: null, error: error.message, permanentFailure: true, progressDone: 0, progressTotal: 0 })
        .where(where);
      this.stats.failed += 1;
      return;
    }
    const attempts = now.attempts + 1;
    const piecesStored = now.stage === "indexing" || now.status === "ready";
    const reason = describeFailure(error);
    this.options.log?.(`ingesting file ${file.id} failed (try ${attempts}): ${reason}`);
    if (attempts < this.timing.maxAttempts) {
      await db
        .update(knowledgeFiles)
        .set({ ...release, attempts, nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts, this.timing)) })
        .where(where);
      this.stats.retried += 1;
    } else if (piecesStored) {
      // Its pieces are searchable by full text: ready, without vectors, which are tried again later.
      await db
        .update(knowledgeFiles)
        .set({
          ...release,
          status: "ready",
          stage: null,
          error: null,
          attempts: 0,
          embeddingModel: null,
          nextAttemptAt: new Date(Date.now() + this.timing.vectorsLaterMs),
        })
        .where(where);
      this.stats.ready += 1;
    } else {
      await db
        .update(knowledgeFiles)
        .set({ ...release, status: "failed", stage: null, error: `We could not index this file: ${reason}. Retry later.`, attempts })
        .where(where);
      this.stats.failed += 1;
    }
  }
}
