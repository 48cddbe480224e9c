/**
 * Long background work on the embedded database (PGlite) without holding the requests that wait for it. PGlite runs
 * on a thread of its own (decision 073), but it is one session: while background statements follow one another
 * without a pause, every request's read waits its turn behind them. So background work is cut into short statements,
 * and between them others go first. On PostgreSQL a statement waits on the network and these cost a turn of the loop.
 */

/** A turn of the event loop: waiting requests (and their timers and sockets) go before the next statement. */
export const letOthersIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs one statement, then rests as long as it kept this thread busy (building it, reading its answer): the work never
 * takes more than about half of the thread that answers requests. The embedded database's session is shared first
 * come, first served (decision 073), so a request's statement queued meanwhile runs before the next one of this work.
 * Not inside a transaction: the session stays with the transaction through the rest (use `letOthersIn` there).
 */
export async function gently<T>(statement: () => Promise<T>): Promise<T> {
  const before = process.threadCpuUsage();
  const result = await statement();
  const spent = process.threadCpuUsage(before);
  const busyMs = (spent.user + spent.system) / 1000;
  await new Promise<void>((resolve) => setTimeout(resolve, Math.min(Math.round(busyMs), 1_000)));
  return result;
}
