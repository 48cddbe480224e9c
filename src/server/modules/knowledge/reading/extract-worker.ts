/**
 * The reader thread (started by extract-text.ts, one per file, compiled beside main.js as extract-worker.js): it
 * reads one file's text, and chunks it when asked, away from the thread that answers requests. It runs with a
 * bounded heap and is terminated past the time limit, so a hostile file costs this thread, never the server.
 *
 *   in:  { bytes, detected, limits, chunking } (chunking null: the text only)
 *   out: { type: "done", extracted, chunks } | { type: "refused", message, code } (a ReadingError) |
 *        { type: "failed", detail } (anything else the parsers threw: the file is taken as unreadable)
 */
import { parentPort } from "node:worker_threads";
import { type Chunk, type ChunkOptions, chunkText } from "./chunk-text.js";
import { extractHere } from "./extract-here.js";
import type { Extracted } from "./extracted.js";
import type { DetectedFile } from "./file-kind.js";
import { ReadingError, type ReadingErrorCode } from "./reading-error.js";
import type { ReadingLimits } from "./reading-limits.js";

export type ToReader = { bytes: Uint8Array; detected: DetectedFile; limits: ReadingLimits; chunking: ChunkOptions | null };
export type FromReader =
  | { type: "done"; extracted: Extracted | null; chunks: Chunk[] | null; pageCount: number | null }
  | { type: "refused"; message: string; code: ReadingErrorCode }
  | { type: "failed"; detail: string };

const port = parentPort;
if (!port) throw new Error("extract-worker.ts runs as a worker thread (extract-text.ts starts it)");

port.once("message", async (message: ToReader) => {
  let answer: FromReader;
  try {
    const extracted = await extractHere(message.bytes, message.detected, message.limits);
    answer = message.chunking
      ? { type: "done", extracted: null, chunks: chunkText(extracted, message.chunking), pageCount: extracted.pageCount }
      : { type: "done", extracted, chunks: null, pageCount: extracted.pageCount };
  } catch (error) {
    answer =
      error instanceof ReadingError
        ? { type: "refused", message: error.message, code: error.code as ReadingErrorCode }
        : { type: "failed", detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  port.postMessage(answer);
});
