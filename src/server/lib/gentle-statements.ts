/**
 * Long background work on the embedded database (PGlite) without holding the thread that answers requests. PGlite
 * runs every statement on this thread, and a query's promise settles without a turn of the event loop: statements
 * awaited one after another, however short each is, hold timers, sockets and requests until the last one ends
 * (bench/ingest: a transaction of sixteen short inserts held the loop 400 ms). So background work is cut into
 * short statements, and between them others go first. On PostgreSQL a statement waits on the network and these
 * cost a turn of the loop.
 */

/** A turn of the event loop: waiting requests (and their timers and sockets) go before the next statement. */
export const letOthersIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs one statement, then rests as long as it kept this thread busy: the work never takes more than about half of
 * the thread that answers requests. On PGlite a request waiting behind it needs several turns of the event loop
 * (its socket, its handler, its answer), each of which would otherwise wait for another statement; on PostgreSQL a
 * statement mostly waits on the network and the rest is short. Not inside a transaction on PGlite: its lock would be
 * held through the rest (use `letOthersIn` there).
 */
export async function gently<T>(statement: () => Promise<T>): Promise<T> {
  const before = process.threadCpuUsage();
  const result = await statement();
  const spent = process.threadCpuUsage(before);
  const busyMs = (spent.user + spent.system) / 1000;
  await new Promise<void>((resolve) => setTimeout(resolve, Math.min(Math.round(busyMs), 1_000)));
  return result;
}
