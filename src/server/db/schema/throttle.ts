import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Throttle counters while Redis does not answer (lib/database-counter-store.ts): one fixed window per key,
 * counted by one upsert that returns the count, so parallel requests on several instances count exactly.
 */
export const throttleCounters = pgTable("throttle_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
