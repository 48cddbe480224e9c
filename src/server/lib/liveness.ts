import { type AnyColumn, type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * The one liveness rule of the work that outlives a request: a chat reply (`GenerationManager.recoverOrphans`), a
 * course run (`CourseGenerationRunner.sweep`) and an AI hold (`AiAllowance.sweep`). Each records the instance that
 * owns it. It is still someone's while
 * - it is this instance's own and runs here, or was written within the last 5 seconds (it is starting: its rows
 *   commit just before it is attached here), or
 * - it is another instance's and that instance is alive (its heartbeat in Redis; without Redis there is one instance,
 *   so another owner is gone).
 * Anything else is an orphan: its sweep closes it, each row on its own (`sweepEach`).
 */

/** True in SQL when the row was written (`writtenAt`) within the last 5 seconds: its work may be starting. */
export function writtenJustNow(writtenAt: SQLWrapper): SQL<boolean> {
  return sql<boolean>`${writtenAt} > now() - interval '5 seconds'`;
}

/** What the rule reads of a row, selected beside the sweep's own columns: its owner, and whether it was written just now. */
export function ownedWork<Owner extends AnyColumn>(owner: Owner, writtenAt: AnyColumn) {
  return { owner, fresh: writtenJustNow(writtenAt) };
}

/** Whether an instance is alive (its heartbeat); none given: one instance, every other owner is gone. */
export type IsInstanceAlive = (instanceId: string) => Promise<boolean>;

/** Work as its sweep sees it: its owner, whether it runs here, whether its row was written just now. */
export interface OwnedWork {
  owner: string | null;
  runsHere: boolean;
  fresh: boolean;
}

/** Whether the work is still someone's (see above); false: an orphan, to be closed by the sweep of `self`. */
export async function stillOwned(work: OwnedWork, self: string, isAlive: IsInstanceAlive | undefined): Promise<boolean> {
  if (work.owner === self) return work.runsHere || work.fresh;
  return Boolean(work.owner && isAlive && (await isAlive(work.owner)));
}

/** Each row of a sweep handled on its own: one that cannot be closed is logged and skipped, never stopping a start or the sweep. */
export async function sweepEach<T>(
  rows: readonly T[],
  close: (row: T) => Promise<void>,
  failed: (row: T, error: unknown) => void,
): Promise<void> {
  for (const row of rows) {
    try {
      await close(row);
    } catch (error) {
      failed(row, error);
    }
  }
}

/** `isAlive` asked once per owner (a failed question is asked again): a sweep over many rows of one owner asks Redis once. */
export function askedOnce(isAlive: IsInstanceAlive | undefined): IsInstanceAlive | undefined {
  if (!isAlive) return undefined;
  const answers = new Map<string, Promise<boolean>>();
  return (owner) => {
    let answer = answers.get(owner);
    if (!answer) {
      answer = isAlive(owner);
      answers.set(owner, answer);
      answer.catch(() => answers.delete(owner));
    }
    return answer;
  };
}
