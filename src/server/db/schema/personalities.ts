import { index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/** A saved AI profile (issue 5): its instructions join the system prompt of the chats that use it. */
export const personalities = pgTable(
  "personalities",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    tone: text("tone").notNull().default("friendly"),
    instructions: text("instructions").notNull(),
    temperature: numeric("temperature", { precision: 3, scale: 2, mode: "number" }).notNull().default(0.7),
    maxTokens: integer("max_tokens").notNull().default(1024),
    platformSlug: text("platform_slug"),
    model: text("model"),
    /** The tools a chat with this personality starts with (issue 34). */
    tools: jsonb("tools").$type<string[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("personalities_user_id_idx").on(t.userId, t.id)],
);
