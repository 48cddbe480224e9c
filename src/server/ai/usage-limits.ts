import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { AppError } from "../lib/app-error.js";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const tooManyRunning = (max: number) =>
  `You can have at most ${max} AI ${max === 1 ? "reply or course generation" : "replies and course generations"} running at once. Wait for one to finish or stop one, then try again.`;

export const tooManyLessons = (max: number, asked: number) =>
  `One approval can write at most ${max} lessons with AI; this outline has ${asked}. Remove some lessons, or approve the course in parts.`;

/**
 * Inside the transaction that starts a reply or a course run: locks the user's row (so two starts of the
 * same user queue here instead of both counting the same total), then refuses with 429 when `max` replies
 * and course runs of theirs are already running. Admins count like everyone.
 */
export async function claimAiSlot(tx: Tx, userId: number, max: number): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId} for no key update`);
  const result = await tx.execute(
    sql`select (select count(*) from messages where user_id = ${userId} and status = 'streaming')
             + (select count(*) from course_generation_runs where user_id = ${userId} and status = 'running') as running`,
  );
  const running = Number((result.rows[0] as { running: number | string } | undefined)?.running ?? 0);
  if (running >= max) throw new AppError("TOO_MANY_REQUESTS", tooManyRunning(max), { retryAfterSeconds: 5 });
}

/** One approval writes at most `max` lessons (each one a provider call). */
export function assertLessonCount(count: number, max: number): void {
  if (count > max) throw new AppError("TOO_MANY_REQUESTS", tooManyLessons(max, count));
}
