import { bigint, date, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/**
 * An admin's allowance per plan (issue 16): tokens per calendar month and messages per day (UTC), each
 * optional (null: unlimited). A plan without a row is unlimited. Admins are never limited.
 */
export const planAllowances = pgTable("plan_allowances", {
  planType: text("plan_type", { enum: ["free", "earlyAccess"] }).primaryKey(),
  monthlyTokens: integer("monthly_tokens"),
  messagesPerDay: integer("messages_per_day"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Tokens (in + out) each user spent per calendar month (UTC), over chat replies, one-shot AI calls and course
 * generation: one upsert per finished call, so counting is exact across instances.
 */
export const usageMonths = pgTable(
  "usage_months",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The first day of the month (UTC). */
    month: date("month").notNull(),
    tokens: bigint("tokens", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] })],
);

/**
 * Messages each user sent per day (UTC), counted when a send or an edit is stored (in its transaction), so
 * deleting chats gives nothing back and imported chats count nothing.
 */
export const usageDays = pgTable(
  "usage_days",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    messages: integer("messages").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
