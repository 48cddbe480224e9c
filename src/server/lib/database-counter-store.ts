import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { throttleCounters } from "../db/schema/index.js";
import type { CounterState, CounterStore } from "./counter-store.js";

/** Expired rows are deleted now and then (every this many hits), so the table only holds live windows. */
const SWEEP_EVERY = 500;

/**
 * Fixed-window counters in the database (`throttle_counters`), used while Redis does not answer. A hit is
 * one upsert that returns the count: the row lock of `on conflict do update` makes parallel hits (on any
 * instance) count one by one, and an expired window starts again at 1. The database clock decides.
 */
export function createDatabaseCounterStore(db: Db): CounterStore {
  let hits = 0;
  const toState = (row: { count: number; reset_ms: number | string } | undefined): CounterState =>
    row ? { count: Number(row.count), resetInMs: Math.max(0, Math.ceil(Number(row.reset_ms))) } : { count: 0, resetInMs: 0 };
  return {
    async hit(key, windowMs) {
      hits += 1;
      if (hits % SWEEP_EVERY === 0) await db.delete(throttleCounters).where(lt(throttleCounters.expiresAt, sql`now()`));
      const result = await db.execute<{ count: number; reset_ms: number | string }>(sql`
        insert into throttle_counters (key, count, expires_at)
        values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
        on conflict (key) do update set
          count = case when throttle_counters.expires_at <= now() then 1 else throttle_counters.count + 1 end,
          expires_at = case when throttle_counters.expires_at <= now() then excluded.expires_at else throttle_counters.expires_at end
        returning count, extract(epoch from (expires_at - now())) * 1000 as reset_ms`);
      return toState(result.rows[0]);
    },
    async peek(key) {
      const result = await db.execute<{ count: number; reset_ms: number | string }>(sql`
        select count, extract(epoch from (expires_at - now())) * 1000 as reset_ms
        from throttle_counters where key = ${key} and expires_at > now()`);
      return toState(result.rows[0]);
    },
    async reset(key) {
      await db.delete(throttleCounters).where(eq(throttleCounters.key, key));
    },
  };
}
