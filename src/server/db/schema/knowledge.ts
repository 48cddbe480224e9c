import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { chats } from "./chat.js";
import { personalities } from "./personalities.js";
import { users } from "./users.js";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The knowledge library (issue 30, decision 032). A user's collections ("Biology 101") hold files; deleting a
 * collection deletes its files and everything read from them.
 */
export const knowledgeCollections = pgTable(
  "knowledge_collections",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("knowledge_collections_user_idx").on(t.userId, t.name)],
);

/**
 * A file a user uploaded: into a collection, or attached to a message (collection null). Its bytes are in
 * `knowledge_file_bytes` (or the object store when S3 is set: `storageKey`). Reading it is a durable job on this row,
 * as the email outbox: queued → processing (claimed by an instance that beats `heartbeatAt`; a claim whose heartbeat
 * stopped is taken over) → ready | failed, retried with backoff (`attempts`, `nextAttemptAt`).
 */
export const knowledgeFiles = pgTable(
  "knowledge_files",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    collectionId: integer("collection_id").references(() => knowledgeCollections.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Found by the bytes, never by the name: application/pdf, image/png, text/markdown... */
    mimeType: text("mime_type").notNull(),
    /** pdf | docx | markdown | text | html | csv | json | code | image */
    kind: text("kind").notNull(),
    byteSize: bigint("byte_size", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    /** Where the bytes are: "db" (knowledge_file_bytes) or "s3" (object key `storageKey`). */
    storage: text("storage").notNull().default("db"),
    storageKey: text("storage_key"),
    /** A PDF's page count, once read. */
    pages: integer("pages"),
    status: text("status", { enum: ["queued", "processing", "ready", "failed"] })
      .notNull()
      .default("queued"),
    /** While processing: "reading" then "indexing" (progressDone of progressTotal pieces embedded). */
    stage: text("stage"),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    /** Why it failed, in words for the user. */
    error: text("error"),
    /** The whole extracted text's size in tokens (a small document goes to the model whole). */
    tokens: integer("tokens"),
    /** The embedding model its pieces' vectors were made with ("slug/model"), null: none (full-text only). */
    embeddingModel: text("embedding_model"),
    attempts: integer("attempts").notNull().default(0),
    /**
     * A failure reading again cannot mend (a `ReadingError`: the bytes are of a kind not read, damaged, protected or too
     * large to read): Retry is refused and the file's owner is asked to delete it and upload a readable copy (decision 068).
     */
    permanentFailure: boolean("permanent_failure").notNull().default(false),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Attached in the chat composer and not sent yet (decision 068): deleted at this time unless a message sends it
     * (or its owner moves it into a collection). Null: a library file.
     */
    unsentUntil: timestamp("unsent_until", { withTimezone: true }),
    claimedBy: text("claimed_by"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("knowledge_files_user_recent_idx").on(t.userId, t.id.desc()),
    index("knowledge_files_collection_idx").on(t.collectionId, t.id.desc()),
    index("knowledge_files_due_idx").on(t.nextAttemptAt).where(sql`status in ('queued', 'processing')`),
    index("knowledge_files_unsent_idx").on(t.unsentUntil).where(sql`unsent_until is not null`),
  ],
);

/**
 * A file's bytes when they are kept in the database (decision 003), in parts of at most FILE_PART_BYTES (decision 074;
 * a file stored before then is one part 0 of any size). The parts are written before their file's row, under the
 * id the row will take, each in a statement of its own, so there is no foreign key: the row's delete is followed by
 * its parts' (`FileStore.remove`), and the housekeeping sweep removes parts left without a row (`sweepLooseParts`).
 * `writtenAt`: when the part was written, stamped again when its row is stored.
 */
export const knowledgeFileBytes = pgTable(
  "knowledge_file_bytes",
  {
    fileId: integer("file_id").notNull(),
    part: integer("part").notNull().default(0),
    data: bytea("data").notNull(),
    writtenAt: timestamp("written_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.part] })],
);

/**
 * The pieces a file was cut into (headings and paragraphs, sized in tokens), searched by full text here and by
 * vector similarity in `knowledge_embeddings` (made at start where pgvector is present, decision 032).
 */
export const knowledgeChunks = pgTable(
  "knowledge_chunks",
  {
    id: serial("id").primaryKey(),
    fileId: integer("file_id")
      .notNull()
      .references(() => knowledgeFiles.id, { onDelete: "cascade" }),
    /** Copied from the file so that every search is scoped to its owner without a join. */
    userId: integer("user_id").notNull(),
    chunkIndex: integer("chunk_index").notNull(),
    page: integer("page"),
    /** "Chapter 2 › Cells" */
    headingPath: text("heading_path").notNull().default(""),
    content: text("content").notNull(),
    tokens: integer("tokens").notNull(),
    contentSearch: tsvector("content_search").generatedAlwaysAs(sql`to_tsvector('simple', content)`),
  },
  (t) => [
    uniqueIndex("knowledge_chunks_file_index_idx").on(t.fileId, t.chunkIndex),
    index("knowledge_chunks_user_idx").on(t.userId),
    index("knowledge_chunks_search_idx").using("gin", t.contentSearch),
  ],
);

/** Collections searched on every reply of a chat. */
export const chatCollections = pgTable(
  "chat_collections",
  {
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => knowledgeCollections.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.collectionId] }), index("chat_collections_collection_idx").on(t.collectionId)],
);

/** Collections a personality brings to every chat that uses it. */
export const personalityCollections = pgTable(
  "personality_collections",
  {
    personalityId: integer("personality_id")
      .notNull()
      .references(() => personalities.id, { onDelete: "cascade" }),
    collectionId: integer("collection_id")
      .notNull()
      .references(() => knowledgeCollections.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.personalityId, t.collectionId] }), index("personality_collections_collection_idx").on(t.collectionId)],
);

/** The admin's embedding model (one row, id 1); none: retrieval is full text only. */
export const embeddingSettings = pgTable("embedding_settings", {
  id: integer("id").primaryKey().default(1),
  platformSlug: text("platform_slug"),
  model: text("model"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
