import { bigint, boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.js";

/**
 * An admin's allowance per plan (issue 16): tokens per calendar month and messages per day (UTC), each
 * optional (null: unlimited). A plan without a row is unlimited. Admins are never limited.
 */
export const planAllowances = pgTable("plan_allowances", {
  planType: text("plan_type", { enum: ["free", "earlyAccess"] }).primaryKey(),
  monthlyTokens: integer("monthly_tokens"),
  messagesPerDay: integer("messages_per_day"),
  /** The knowledge library (issue 30): bytes stored, files kept and the largest file, each null: unlimited. */
  storageBytes: bigint("storage_bytes", { mode: "number" }),
  maxFiles: integer("max_files"),
  maxFileBytes: bigint("max_file_bytes", { mode: "number" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Tokens (in + out) each user spent per calendar month (UTC), over chat replies, one-shot AI calls and course
 * generation: added when a call's hold is settled (`settle_ai_hold`, decision 028), so counting is exact across
 * instances.
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

/**
 * Tokens held for AI calls under way (decision 028), as a card payment holds an amount before it is captured: the
 * claim (`claim_ai_slot`) inserts one with the request's most (its max output tokens plus its prompt's bytes), every
 * verdict counts the user's holds as spent, and the call's end settles it (`settle_ai_hold`: the hold goes, the
 * tokens really spent are added to `usage_months`, in one statement). `owner` is the instance making the call: a hold
 * whose owner is gone is settled by the orphan sweep, so no hold is counted forever.
 */
export const aiHolds = pgTable(
  "ai_holds",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The most the call can spend. */
    tokens: integer("tokens").notNull(),
    /** A likely figure for the prompt alone: what is settled, with the text received, when the provider reports no usage. */
    promptEstimate: integer("prompt_estimate").notNull(),
    owner: text("owner").notNull(),
    /**
     * A chat reply's row (set by `start_reply`); its text is what an orphan's settle counts. No foreign key: a reply
     * deleted meanwhile (its chat deleted) simply has no text to count, and neither a reply's start nor a chat's
     * deletion pays for a check.
     */
    messageId: integer("message_id"),
    /**
     * A call with no row of its own that counts as running work, as a reply or a course run does: a request of the
     * OpenAI-compatible endpoint (decision 051). `ai_slot_verdict` counts it (migration 0027).
     */
    runningCall: boolean("running_call").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ai_holds_user_idx").on(t.userId)],
);
