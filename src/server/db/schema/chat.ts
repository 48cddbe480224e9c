import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { personalities } from "./personalities.js";
import { users } from "./users.js";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const chats = pgTable(
  "chats",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Platform slug (spec: aiPlatform). */
    aiPlatform: text("ai_platform").notNull(),
    model: text("model"),
    /** Save Chat History off: not listed, deleted when left (and swept after a day). */
    temporary: boolean("temporary").notNull().default(false),
    personalityId: integer("personality_id").references(() => personalities.id, { onDelete: "set null" }),
    titleSearch: tsvector("title_search").generatedAlwaysAs(sql`to_tsvector('simple', title)`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The sidebar: one user's chats, most recently active first, paged by (updated_at, id).
    index("chats_user_recent_idx").on(t.userId, t.updatedAt.desc(), t.id.desc()),
    index("chats_title_search_idx").using("gin", t.titleSearch),
  ],
);

export interface StoredAttachment {
  name: string;
  size: number;
  content: string;
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
    role: text("role").notNull(),
    content: text("content").notNull(),
    /** complete | streaming | incomplete | failed */
    status: text("status").notNull().default("complete"),
    error: text("error"),
    platformSlug: text("platform_slug"),
    model: text("model"),
    attachments: jsonb("attachments").$type<StoredAttachment[]>().notNull().default([]),
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
    // Tokens used per user over the last days (admin users page).
    index("messages_user_usage_idx").on(t.userId, t.createdAt).where(sql`input_tokens is not null or output_tokens is not null`),
    index("messages_content_search_idx").using("gin", t.contentSearch),
    index("messages_streaming_idx").on(t.status).where(sql`status = 'streaming'`),
    // At most one reply being written per chat, even when two requests race.
    uniqueIndex("messages_one_streaming_per_chat_idx").on(t.chatId).where(sql`status = 'streaming'`),
  ],
);
