import { sql } from "drizzle-orm";
import { messagesSpentMessage, tokensHeldMessage, tokensSpentMessage } from "../../shared/contracts/usage.js";
import type { Db, Tx } from "../db/client.js";
import { preparedPerDb } from "../db/prepared.js";
import { AppError } from "../lib/app-error.js";

/** The database or a transaction. */
type Queryable = Pick<Db, "select">;

export const tooManyRunning = (max: number) =>
  `You can have at most ${max} AI ${max === 1 ? "reply or course generation" : "replies and course generations"} running at once. Wait for one to finish or stop one, then try again.`;

export const tooManyLessons = (max: number, asked: number) =>
  `One approval can write at most ${max} lessons with AI; this outline has ${asked}. Remove some lessons, or approve the course in parts.`;

/** What a claim counts besides its tokens: a send or an edit also stores one user message (counted per day). */
export type AiUse = { newMessage: boolean };
const TOKENS_ONLY: AiUse = { newMessage: false };

/** Where a user stands this month and today (UTC), with their plan's allowances (null: unlimited). */
export type UsageNumbers = {
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
  tokens: number;
  messagesToday: number;
  monthlyTokens: number | null;
  messagesPerDay: number | null;
  /** Replies being written, course runs and /v1 calls running now (migration 0027). */
  running: number;
  /** Tokens held by AI calls under way (decision 028). */
  held: number;
};

/** The first instant of next month and of tomorrow, UTC: when each allowance starts again. */
export function resetTimes(now = new Date()): { month: Date; day: Date } {
  return {
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
  };
}

/** What the database decided for a start (`ai_slot_verdict`, migration 0016): null for an unknown user. */
export type SlotVerdict = "ok" | "running" | "tokens" | "messages" | "held" | null;

/** The `ai_slot` row as node-postgres gives it (bigint as text). */
export type SlotRow = {
  verdict: SlotVerdict;
  role: "user" | "admin" | null;
  plan_type: "free" | "earlyAccess" | null;
  tokens: number | string | null;
  messages_today: number | null;
  monthly_tokens: number | string | null;
  messages_per_day: number | null;
  running: number | null;
  held: number | string | null;
  /** The hold a claim took (decision 028); null for a verdict alone. */
  hold_id: number | null;
};

const asNumber = (value: number | string | null) => (value === null ? null : Number(value));

/** The numbers of an `ai_slot` row; undefined for an unknown user. */
export function numbersOfSlot(row: SlotRow | undefined): UsageNumbers | undefined {
  if (!row?.role || !row.plan_type) return undefined;
  return {
    role: row.role,
    planType: row.plan_type,
    tokens: asNumber(row.tokens) ?? 0,
    messagesToday: row.messages_today ?? 0,
    monthlyTokens: asNumber(row.monthly_tokens),
    messagesPerDay: row.messages_per_day,
    running: row.running ?? 0,
    held: asNumber(row.held) ?? 0,
  };
}

/**
 * The refusal for the database's verdict, or null when it allows the start. The rule itself (who is refused, in
 * which order: replies running, then tokens spent this month, messages sent today, and tokens held by calls under
 * way; admins refused only for running work) is `ai_slot_verdict` in migration 0016, its one home, behind every
 * check and claim; this says it in words, with when it resets (or, for a hold, when to try again).
 */
export function refusalOf(row: SlotRow | undefined, max: number, now = new Date()): AppError | null {
  const numbers = numbersOfSlot(row);
  if (!row || !numbers) return null;
  const resets = resetTimes(now);
  const seconds = (at: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
  switch (row.verdict) {
    case "running":
      return new AppError("TOO_MANY_REQUESTS", tooManyRunning(max), { retryAfterSeconds: 5, limit: "rate" });
    case "tokens":
      return new AppError("TOO_MANY_REQUESTS", tokensSpentMessage(numbers.monthlyTokens ?? 0, resets.month), {
        retryAfterSeconds: seconds(resets.month),
        limit: "quota",
      });
    case "messages":
      return new AppError("TOO_MANY_REQUESTS", messagesSpentMessage(numbers.messagesPerDay ?? 0), {
        retryAfterSeconds: seconds(resets.day),
        limit: "quota",
      });
    case "held":
      return new AppError("TOO_MANY_REQUESTS", tokensHeldMessage(numbers.monthlyTokens ?? 0), { retryAfterSeconds: 5, limit: "rate" });
    default:
      return null;
  }
}

/** Replies and course runs at once without a limit (a stored message that starts no reply): no running check. */
const maxArg = (max: number) => (Number.isFinite(max) ? max : null);

/** `ai_slot_verdict` as a named statement (every reply asks it before the provider, issue 15; decision 022). */
const verdictOf = preparedPerDb((db: Queryable) => {
  const column = <T>(name: keyof SlotRow) => sql<T>`${sql.raw(`s.${name}`)}`;
  return db
    .select({
      verdict: column<SlotVerdict>("verdict"),
      role: column<SlotRow["role"]>("role"),
      plan_type: column<SlotRow["plan_type"]>("plan_type"),
      tokens: column<SlotRow["tokens"]>("tokens"),
      messages_today: column<SlotRow["messages_today"]>("messages_today"),
      monthly_tokens: column<SlotRow["monthly_tokens"]>("monthly_tokens"),
      messages_per_day: column<SlotRow["messages_per_day"]>("messages_per_day"),
      running: column<SlotRow["running"]>("running"),
      held: column<SlotRow["held"]>("held"),
      hold_id: column<SlotRow["hold_id"]>("hold_id"),
    })
    .from(sql`ai_slot_verdict(${sql.placeholder("userId")}, ${sql.placeholder("max")}::int) as s`)
    .prepare("ai_slot_verdict");
});

/**
 * Where a user stands and what a start would get now, read without a lock (the database's `ai_slot_verdict`):
 * the check before a provider call and the usage meter. `max`: replies and course runs at once (Infinity: none).
 */
export async function readAiSlot(db: Queryable, userId: number, max: number): Promise<SlotRow | undefined> {
  const [row] = await verdictOf(db).execute({ userId, max: maxArg(max) });
  return row;
}

/**
 * Inside the transaction that starts a course run or stores a user's message, a claim that asks no model yet (so it
 * holds no tokens; each lesson of a run claims its own hold, `ai/allowance.ts`): the database's `claim_ai_slot` locks
 * the user's row (so two starts of the same user, on any instance, queue there instead of both counting the same
 * total), reads the verdict after the lock, and counts a send for today when allowed (decision 016: the caller's
 * user message is inserted in this same transaction, so the limit holds exactly). 429 when refused. A reply's
 * start claims inside `start_reply` instead, with its writes and its hold, in one round trip (decisions 025, 028).
 */
export async function claimAiSlot(tx: Tx, userId: number, max: number, use: AiUse = TOKENS_ONLY): Promise<void> {
  const result = await tx.execute(
    sql`select * from claim_ai_slot(${userId}, ${maxArg(max)}::int, ${use.newMessage}, null::int, null::int, null::text)`,
  );
  const refusal = refusalOf(result.rows[0] as SlotRow | undefined, max);
  if (refusal) throw refusal;
}

/**
 * The claim's checks without its lock, its count or its hold: a reply calls it before asking the provider, so a user
 * over a limit never starts a provider call; the claim, in the reply's start, is what holds under races.
 */
export async function assertAiSlot(db: Queryable, userId: number, max: number): Promise<void> {
  const refusal = refusalOf(await readAiSlot(db, userId, max), max);
  if (refusal) throw refusal;
}

/** One approval writes at most `max` lessons (each one a provider call). */
export function assertLessonCount(count: number, max: number): void {
  if (count > max) throw new AppError("TOO_MANY_REQUESTS", tooManyLessons(max, count));
}
