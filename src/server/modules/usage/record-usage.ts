import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

type Queryable = Pick<Db, "execute">;

/** Tokens (in + out) a provider reported for one call; missing counts are 0. */
export function tokensOf(usage: { inputTokens?: number | null; outputTokens?: number | null } | undefined): number {
  const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  return Number.isFinite(tokens) && tokens > 0 ? Math.round(tokens) : 0;
}

/**
 * Adds a finished call's tokens to the user's current UTC month: one upsert, so calls finishing at once on
 * any instance all count (decision 016). Nothing is written for 0 tokens.
 */
export async function recordUsage(db: Queryable, userId: number, tokens: number): Promise<void> {
  if (!(tokens > 0)) return;
  await db.execute(sql`
    insert into usage_months (user_id, month, tokens)
    values (${userId}, date_trunc('month', now() at time zone 'UTC')::date, ${Math.round(tokens)})
    on conflict (user_id, month) do update set tokens = usage_months.tokens + excluded.tokens`);
}

/** For `onUsage` of a provider call (ai/generate.ts): records what it spent for this user. */
export function usageRecorder(db: Queryable, userId: number) {
  return (usage: { inputTokens?: number; outputTokens?: number } | undefined) => recordUsage(db, userId, tokensOf(usage));
}
