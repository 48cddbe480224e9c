import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { chats } from "./chat.js";
import { users } from "./users.js";

/**
 * One message of a shared snapshot (issue 33), copied when the link was made or updated: what the shared page shows
 * and what "Continue this chat" copies. Attachments keep their names only; no personality instructions, no ids.
 */
export interface SharedMessage {
  role: "user" | "assistant";
  content: string;
  attachmentNames: string[];
  /** The sources a reply cites as [n], by name and page (decision 058); absent in snapshots taken before. */
  sources?: { n: number; name: string; page: number | null }[];
  model: string | null;
  createdAt: string;
}

/**
 * A read-only link to a snapshot of one chat's branch (issue 33). The token is the link's only name (long, random,
 * never the chat id); it is kept as it is so the owner can copy the link again. Revoked: `revoked_at` set, 404 at once.
 */
export const chatShares = pgTable(
  "chat_shares",
  {
    id: serial("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** The chat's title when the snapshot was taken. */
    title: text("title").notNull(),
    /** The branch shown when the snapshot was taken, oldest first. */
    messages: jsonb("messages").$type<SharedMessage[]>().notNull().default([]),
    /** Show the owner's display name on the shared page (off unless the owner chose it). */
    showAuthor: boolean("show_author").notNull().default(false),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("chat_shares_user_idx").on(t.userId, t.id.desc()), index("chat_shares_chat_idx").on(t.chatId)],
);
