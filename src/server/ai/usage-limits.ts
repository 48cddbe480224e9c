import { eq, sql } from "drizzle-orm";
import { messagesSpentMessage, tokensSpentMessage } from "../../shared/contracts/usage.js";
import type { Db } from "../db/client.js";
import { preparedPerDb } from "../db/prepared.js";
import { planAllowances, users } from "../db/schema/index.js";
import { AppError } from "../lib/app-error.js";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or a transaction (the claim reads inside its own). */
type Queryable = Pick<Db, "select">;

export const tooManyRunning = (max: number) =>
  `You can have at most ${max} AI ${max === 1 ? "reply or course generation" : "replies and course generations"} running at once. Wait for one to finish or stop one, then try again.`;

export const tooManyLessons = (max: number, asked: number) =>
  `One approval can write at most ${max} lessons with AI; this outline has ${asked}. Remove some lessons, or approve the course in parts.`;

/** What a start spends: every AI call spends tokens; a send also stores one user message (counted per day). */
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
  /** Replies being written and course runs running now. */
  running: number;
};

/** The first instant of next month and of tomorrow, UTC: when each allowance starts again. */
export function resetTimes(now = new Date()): { month: Date; day: Date } {
  return {
    month: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    day: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
  };
}

/**
 * One read of a user's role, plan allowances, tokens this month (`usage_months`) and messages sent today
 * (`usage_days`), all in UTC by the database clock, prepared once per database or transaction (a named
 * statement: every reply asks it before the provider, issue 15). Undefined for an unknown user.
 */
const numbersOf = preparedPerDb((db: Queryable) =>
  db
    .select({
      role: users.role,
      planType: users.planType,
      tokens: sql<number | string>`coalesce((select um.tokens from usage_months um
        where um.user_id = "users"."id" and um.month = date_trunc('month', now() at time zone 'UTC')::date), 0)`,
      messagesToday: sql<number | string>`coalesce((select ud.messages from usage_days ud
        where ud.user_id = "users"."id" and ud.day = (now() at time zone 'UTC')::date), 0)`,
      monthlyTokens: planAllowances.monthlyTokens,
      messagesPerDay: planAllowances.messagesPerDay,
      running: sql<number | string>`(select count(*) from messages m where m.user_id = "users"."id" and m.status = 'streaming')
        + (select count(*) from course_generation_runs r where r.user_id = "users"."id" and r.status = 'running')`,
    })
    .from(users)
    .leftJoin(planAllowances, eq(planAllowances.planType, users.planType))
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("usage_numbers"),
);

export async function usageNumbers(db: Queryable, userId: number): Promise<UsageNumbers | undefined> {
  const [row] = await numbersOf(db).execute({ userId });
  if (!row) return undefined;
  return {
    role: row.role,
    planType: row.planType,
    tokens: Number(row.tokens),
    messagesToday: Number(row.messagesToday),
    monthlyTokens: row.monthlyTokens,
    messagesPerDay: row.messagesPerDay,
    running: Number(row.running),
  };
}

/** The refusal a start would get now (tokens first: they last longer), or null. Admins are never refused. */
export function allowanceRefusal(numbers: UsageNumbers, use: AiUse, now = new Date()): AppError | null {
  if (numbers.role === "admin") return null;
  const resets = resetTimes(now);
  const seconds = (at: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (numbers.monthlyTokens !== null && numbers.tokens >= numbers.monthlyTokens) {
    return new AppError("TOO_MANY_REQUESTS", tokensSpentMessage(numbers.monthlyTokens, resets.month), {
      retryAfterSeconds: seconds(resets.month),
    });
  }
  if (use.newMessage && numbers.messagesPerDay !== null && numbers.messagesToday >= numbers.messagesPerDay) {
    return new AppError("TOO_MANY_REQUESTS", messagesSpentMessage(numbers.messagesPerDay), { retryAfterSeconds: seconds(resets.day) });
  }
  return null;
}

/**
 * Inside the transaction that starts a reply or a course run: locks the user's row (so two starts of the
 * same user, on any instance, queue here instead of both counting the same total), then refuses with 429
 * when `max` replies and course runs of theirs are already running (admins count like everyone), or when
 * their plan's allowance is spent (decision 016: tokens this month for every start; messages today too for a
 * send, whose user message the caller inserts in this same transaction, so the limit holds exactly).
 */
export async function claimAiSlot(tx: Tx, userId: number, max: number, use: AiUse = TOKENS_ONLY): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId} for no key update`);
  await assertAiSlot(tx, userId, max, use);
  // The send is counted in its own transaction: refused or rolled back, it counts nothing; deleted later, it still counts.
  if (use.newMessage) {
    await tx.execute(sql`insert into usage_days (user_id, day, messages) values (${userId}, (now() at time zone 'UTC')::date, 1)
      on conflict (user_id, day) do update set messages = usage_days.messages + 1`);
  }
}

/**
 * The claim's checks without its lock or its count: a reply calls it before asking the provider, so a user over
 * a limit never starts a provider call; the claim, in the transaction, is what holds under races.
 */
export async function assertAiSlot(db: Queryable, userId: number, max: number, use: AiUse = TOKENS_ONLY): Promise<void> {
  const numbers = await usageNumbers(db, userId);
  if (!numbers) return;
  if (numbers.running >= max) throw new AppError("TOO_MANY_REQUESTS", tooManyRunning(max), { retryAfterSeconds: 5 });
  const refusal = allowanceRefusal(numbers, use);
  if (refusal) throw refusal;
}

/** The allowance check alone (one-shot AI calls, and each lesson of a course run): 429 when spent. */
export async function assertAllowance(db: Queryable, userId: number, use: AiUse = TOKENS_ONLY): Promise<void> {
  const numbers = await usageNumbers(db, userId);
  const refusal = numbers && allowanceRefusal(numbers, use);
  if (refusal) throw refusal;
}

/** One approval writes at most `max` lessons (each one a provider call). */
export function assertLessonCount(count: number, max: number): void {
  if (count > max) throw new AppError("TOO_MANY_REQUESTS", tooManyLessons(max, count));
}
