import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { lessons } from "./courses.js";
import { personalities } from "./personalities.js";
import { users } from "./users.js";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A user's folders for chats (issue 16). Deleting one moves its chats out (folder_id set null) unless they are deleted first. */
export const chatFolders = pgTable(
  "chat_folders",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("chat_folders_user_name_idx").on(t.userId, t.name)],
);

export const chats = pgTable(
  "chats",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Platform slug (the API calls it aiPlatform). */
    aiPlatform: text("ai_platform").notNull(),
    model: text("model"),
    /** Save Chat History off: not listed, deleted when left (and swept after a day). */
    temporary: boolean("temporary").notNull().default(false),
    personalityId: integer("personality_id").references(() => personalities.id, { onDelete: "set null" }),
    folderId: integer("folder_id").references(() => chatFolders.id, { onDelete: "set null" }),
    /** Pinned chats come first in the sidebar, most recently pinned first. */
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    /** The message shown last: the leaf of the branch the user is on (null: the newest message). */
    activeLeafId: integer("active_leaf_id").references((): AnyPgColumn => messages.id, { onDelete: "set null" }),
    titleSearch: tsvector("title_search").generatedAlwaysAs(sql`to_tsvector('simple', title)`),
    /** An imported chat: the hash of what the file held for it, so importing the file again skips it (null otherwise). */
    importKey: text("import_key"),
    /** A lesson's tutor chat (issue 31): its replies are given the lesson and the course's sources. One per user and lesson. */
    tutorLessonId: integer("tutor_lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    /** The tools the user switched on for this chat (issue 34): `builtin:<name>` or `mcp:<serverId>:<tool>`. */
    tools: jsonb("tools").$type<string[]>().notNull().default([]),
    /**
     * Whether the chat has a message (a chat is listed once it has one: `listedChat`). Set by the database itself
     * (trigger `chats_have_messages`, migration 0034) whenever messages are written, by any path; messages go only
     * with their chat, so it never turns back.
     */
    hasMessages: boolean("has_messages").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A chat is imported once per account: a retried or repeated import skips what already arrived.
    uniqueIndex("chats_user_import_key_idx").on(t.userId, t.importKey).where(sql`import_key is not null`),
    uniqueIndex("chats_user_tutor_lesson_idx").on(t.userId, t.tutorLessonId).where(sql`tutor_lesson_id is not null`),
    // The sidebar: one user's chats, most recently active first, paged by (updated_at, id).
    index("chats_user_recent_idx").on(t.userId, t.updatedAt.desc(), t.id.desc()),
    index("chats_title_search_idx").using("gin", t.titleSearch),
    // One folder's chats, most recently active first (sidebar and search limited to a folder).
    index("chats_user_folder_recent_idx").on(t.userId, t.folderId, t.updatedAt.desc(), t.id.desc()),
    index("chats_user_pinned_idx").on(t.userId, t.pinnedAt.desc()).where(sql`pinned_at is not null`),
    // The folders' counts of listed chats (the sidebar's folder rows): the listed chats in folders, by folder.
    index("chats_user_folder_listed_idx").on(t.userId, t.folderId).where(sql`folder_id is not null and not temporary and has_messages`),
  ],
);

/**
 * What a message carries besides its text. A pasted text file (before issue 30) keeps its `content`; a file from the
 * knowledge library (issue 30) is named by `fileId` (its bytes and pieces stay in the library; a deleted file leaves the
 * name, size and hash), with its type found from the bytes.
 */
export interface StoredAttachment {
  name: string;
  size: number;
  content?: string;
  fileId?: number;
  mimeType?: string;
  kind?: string;
  sha256?: string;
  /** An import could not bring the file: a placeholder (issue 30). */
  missing?: boolean;
}

/**
 * A tool call a reply made (issue 34), in the order made; `step` is the model step that asked for it, so the reply's
 * text and its calls can be given back to a model in order. `result` is the text the model got (capped, untrusted).
 */
export interface StoredToolCall {
  id: string;
  tool: string;
  /** The tool's name as shown when the call was made (kept: a tool may be renamed or removed later). */
  name?: string;
  step: number;
  args: unknown;
  result: string | null;
  status: "running" | "awaiting-approval" | "done" | "error" | "denied";
  /** Where the reply's text stood when the call was made, so cards sit between the right paragraphs. */
  textOffset: number;
  /** The passages a search_files call gave, numbered as the model read them (decision 055); absent for other tools. */
  sources?: StoredCitation[];
}

/**
 * A passage a reply was given as [n] (issue 30; a search_files call's, decision 055): only passages really retrieved for
 * it are kept.
 */
export interface StoredCitation {
  n: number;
  fileId: number;
  fileName: string;
  page: number | null;
  excerpt: string;
  chunkId: number;
  /**
   * A whole document's page or section (decision 058): its last piece. The source is the pieces from `chunkId` through
   * this one, given without their overlap; absent for a searched passage (its one piece, as stored).
   */
  throughChunkId?: number;
}

export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** Copied from the chat so that search filters by owner without a join. */
    userId: integer("user_id").notNull(),
    /** The message this one follows: messages form a tree, siblings are the branches (edit, regenerate). */
    parentId: integer("parent_id").references((): AnyPgColumn => messages.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull(),
    /** complete | streaming | incomplete | failed */
    status: text("status").notNull().default("complete"),
    error: text("error"),
    platformSlug: text("platform_slug"),
    model: text("model"),
    attachments: jsonb("attachments").$type<StoredAttachment[]>().notNull().default([]),
    citations: jsonb("citations").$type<StoredCitation[]>().notNull().default([]),
    toolCalls: jsonb("tool_calls").$type<StoredToolCall[]>().notNull().default([]),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    /** The personality that wrote the reply, by name, so history keeps it. */
    personalityName: text("personality_name"),
    /** The app instance writing a streaming reply, so a restart can tell orphans from live ones. */
    generationOwner: text("generation_owner"),
    contentSearch: tsvector("content_search").generatedAlwaysAs(sql`to_tsvector('simple', left(content, 100000))`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("messages_chat_id_idx").on(t.chatId, t.id),
    // A message's siblings and children (branch switcher, walking down to a leaf).
    index("messages_chat_parent_idx").on(t.chatId, t.parentId, t.id),
    // Tokens used per user over the last days (admin users page).
    index("messages_user_usage_idx").on(t.userId, t.createdAt).where(sql`input_tokens is not null or output_tokens is not null`),
    index("messages_content_search_idx").using("gin", t.contentSearch),
    index("messages_streaming_idx").on(t.status).where(sql`status = 'streaming'`),
    // At most one reply being written per chat, even when two requests race.
    uniqueIndex("messages_one_streaming_per_chat_idx").on(t.chatId).where(sql`status = 'streaming'`),
  ],
);
