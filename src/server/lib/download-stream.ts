import { Readable } from "node:stream";
import { letOthersIn } from "./gentle-statements.js";

/** What a download holds ahead of the socket: one piece past it at most (a piece is a page of the export). */
export const DOWNLOAD_BUFFER_BYTES = 64 * 1024;

/**
 * The pieces with a turn of the event loop before each is asked for (decision 070). A piece is a page read from the
 * database: on PGlite the statement runs on this thread, and while the socket takes the bytes at once (a fast
 * client), a drained socket and the next read settle without a turn, so a whole export would hold every other
 * request until its end (bench/export-isolation: 6.5 s for 100k messages). With a turn between pages, others wait
 * one page at most.
 */
async function* takingTurns<T extends string | Uint8Array>(pieces: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pieces[Symbol.asyncIterator]();
  try {
    for (;;) {
      await letOthersIn();
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A download cut short (the client left, or a read failed) ends its reads too.
    await iterator.return?.();
  }
}

/**
 * A download's body as it is produced (exports, the activity CSV, a library file's bytes): the next piece is read only when the socket has
 * taken the one before (back-pressure: a slow client slows the reads, memory holds about one piece), with a turn of
 * the event loop between pieces. A piece that fails after the first bytes went out destroys the stream, and Fastify
 * then destroys the connection: the client sees a download cut off (no last chunk), never a short file that looks
 * whole. A failure before any byte answers as any error does.
 */
export function downloadBody(pieces: AsyncIterable<string | Uint8Array>): Readable {
  return Readable.from(takingTurns(pieces), { objectMode: false, highWaterMark: DOWNLOAD_BUFFER_BYTES });
}
