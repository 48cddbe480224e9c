/**
 * Reading a file's text (issue 30), the API the ingestion calls. PDFs, Word documents and text files over a small
 * size are read in a reader thread of their own (extract-worker.ts): pdf.js and mammoth parse untrusted bytes
 * synchronously for long stretches, so here they can neither block the event loop nor take the server's memory.
 * The thread has a bounded heap (out of memory ends the thread, not the process) and a time limit after which it is
 * terminated; at most MAX_READER_THREADS read at once, more files wait their turn. Whatever goes wrong with a file
 * comes out as a `ReadingError` with a sentence for the user, never an error that becomes a 500.
 */
import { Worker } from "node:worker_threads";
import { type Chunk, type ChunkOptions, chunkText } from "./chunk-text.js";
import { extractTextFile } from "./extract-here.js";
import type { FromReader, ToReader } from "./extract-worker.js";
import type { Extracted } from "./extracted.js";
import type { DetectedFile } from "./file-kind.js";
import { ReadingError, TOO_MUCH_MEMORY_MESSAGE, TOO_SLOW_MESSAGE, UNREADABLE_MESSAGE } from "./reading-error.js";
import { MAX_READER_THREADS, type ReadingLimits, readingLimits } from "./reading-limits.js";

export type { Extracted, ExtractedPage } from "./extracted.js";
export { ReadingError } from "./reading-error.js";

let running = 0;
const waiting: (() => void)[] = [];

async function takeTurn(): Promise<() => void> {
  if (running >= MAX_READER_THREADS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const next = waiting.shift();
    // The turn passes straight to the next file waiting; `running` counts it still.
    if (next) next();
    else running -= 1;
  };
}

/** A reader thread, from the source under tsx and Vitest, or compiled beside main.js (scripts/build-server.ts). */
function startReader(limits: ReadingLimits): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  return new Worker(new URL(`./extract-worker.${fromSource ? "ts" : "js"}`, import.meta.url), {
    // Under Vitest no loader is in the flags to inherit: the source runs through tsx.
    ...(fromSource ? { execArgv: ["--import", "tsx"] } : {}),
    resourceLimits: { maxOldGenerationSizeMb: limits.workerHeapMb },
    stdout: false,
    stderr: false,
  });
}

/** One file read in its own reader thread: the answer, or a ReadingError for every way it can end badly. */
async function readInThread(request: ToReader): Promise<Extract<FromReader, { type: "done" }>> {
  const release = await takeTurn();
  try {
    const worker = startReader(request.limits);
    const answer = await new Promise<FromReader>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        void worker.terminate();
      }, request.limits.timeoutMs);
      worker.once("message", (message: FromReader) => {
        clearTimeout(timer);
        resolve(message);
        void worker.terminate();
      });
      let failure: Error | undefined;
      worker.on("error", (error: Error) => {
        failure ??= error;
      });
      worker.once("exit", () => {
        clearTimeout(timer);
        if (timedOut) reject(new ReadingError(TOO_SLOW_MESSAGE, "PAYLOAD_TOO_LARGE"));
        else if ((failure as { code?: string } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY")
          reject(new ReadingError(TOO_MUCH_MEMORY_MESSAGE, "PAYLOAD_TOO_LARGE"));
        else reject(Object.assign(new ReadingError(UNREADABLE_MESSAGE), { cause: failure }));
      });
      // The bytes are copied to the thread; the caller's stay untouched.
      worker.postMessage(request);
    });
    if (answer.type === "refused") throw new ReadingError(answer.message, answer.code);
    if (answer.type === "failed") throw Object.assign(new ReadingError(UNREADABLE_MESSAGE), { cause: new Error(answer.detail) });
    return answer;
  } finally {
    release();
  }
}

function readHere(bytes: Uint8Array, detected: DetectedFile, limits: ReadingLimits): boolean {
  return detected.kind !== "pdf" && detected.kind !== "docx" && bytes.byteLength <= limits.mainThreadTextBytes;
}

/**
 * A file's text: per page for a PDF (`page` 1-based), one page (`page: null`) otherwise; headings of Markdown,
 * HTML and Word documents as "#" lines; HTML's scripts, styles and comments dropped, never run. Small text files are
 * read on this thread; the rest in a reader thread. Throws ReadingError (a 4xx `AppError`) for a file refused.
 */
export async function extractText(bytes: Uint8Array, detected: DetectedFile, limits?: Partial<ReadingLimits>): Promise<Extracted> {
  const within = readingLimits(limits);
  if (readHere(bytes, detected, within)) return extractTextFile(bytes, detected, within);
  const answer = await readInThread({ bytes, detected, limits: within, chunking: null });
  if (!answer.extracted) throw new ReadingError(UNREADABLE_MESSAGE);
  return answer.extracted;
}

/**
 * A file read and chunked in one go: the chunking runs in the reader thread too (for a long document it takes
 * tens of milliseconds, which the event loop should not wait), so only the chunks come back.
 */
export async function extractChunks(
  bytes: Uint8Array,
  detected: DetectedFile,
  options: { limits?: Partial<ReadingLimits>; chunking?: ChunkOptions } = {},
): Promise<{ chunks: Chunk[]; pageCount: number | null }> {
  const within = readingLimits(options.limits);
  const chunking = options.chunking ?? {};
  if (readHere(bytes, detected, within)) {
    const extracted = extractTextFile(bytes, detected, within);
    return { chunks: chunkText(extracted, chunking), pageCount: extracted.pageCount };
  }
  const answer = await readInThread({ bytes, detected, limits: within, chunking });
  if (!answer.chunks) throw new ReadingError(UNREADABLE_MESSAGE);
  return { chunks: answer.chunks, pageCount: answer.pageCount };
}
