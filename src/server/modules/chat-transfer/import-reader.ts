import { Worker } from "node:worker_threads";
import { AppError } from "../../lib/app-error.js";
import type { KeyedImportChat } from "./import-chat.js";
import type { FromWorker, ToWorker } from "./import-worker.js";
import type { ImportSource } from "./read-import-file.js";

/** What POST /api/chats/import received, unread: the bytes of the file or of the JSON body. */
export interface ImportUpload {
  bytes: Uint8Array;
  source: ImportSource;
}

/**
 * Reader threads per instance: more imports at once wait their turn. Each holds its file, parsed, until its chats
 * are stored, so this bounds the memory and the cores that imports take, not only the main thread's time.
 */
const MAX_READERS = 2;
/**
 * A reader's heap: the largest files the limits allow (50 MiB, 200,000 nodes, hidden or visible) leave about 300 MB in
 * use once read. A file that needs more fails that import (413), not the server.
 */
const READER_HEAP_MB = 1536;
/**
 * A reader is kept for the next import after a file up to this size (starting one takes some tens of
 * milliseconds, half a second under tsx); after a larger file it ends, and the memory it grew goes back.
 */
const KEEP_AFTER_BYTES = 8 * 1024 * 1024;

const alive = new Set<Worker>();
const idle: Worker[] = [];
const waiting: ((worker: Worker) => void)[] = [];

/** A reader thread, from the source under tsx and Vitest, or compiled beside main.js (scripts/build-server.ts). */
function startReader(): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const worker = new Worker(new URL(`./import-worker.${fromSource ? "ts" : "js"}`, import.meta.url), {
    // Under Vitest no loader is in the flags to inherit: the source runs through tsx.
    ...(fromSource ? { execArgv: ["--import", "tsx"] } : {}),
    resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
  });
  // An idle reader never keeps the process up; its failures are told to the import using it (inbox below).
  worker.unref();
  worker.on("error", () => {});
  worker.on("exit", () => {
    alive.delete(worker);
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    const next = waiting.shift();
    if (next) next(startReader());
  });
  alive.add(worker);
  return worker;
}

async function borrowReader(): Promise<Worker> {
  const ready = idle.pop();
  if (ready) return ready;
  if (alive.size < MAX_READERS) return startReader();
  return new Promise((resolve) => waiting.push(resolve));
}

/** Back for the next import (`keep`), or ended: its `exit` hands a new reader to an import waiting, if any. */
function returnReader(worker: Worker, keep: boolean): void {
  if (!keep) {
    void worker.terminate();
    return;
  }
  const next = waiting.shift();
  if (next) next(worker);
  else idle.push(worker);
}

/** One import's conversation with its reader: each answer in order; a crash or running out of memory fails the next. */
function inbox(worker: Worker) {
  const queued: FromWorker[] = [];
  let waiter: { resolve(message: FromWorker): void; reject(error: unknown): void } | undefined;
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
    waiter?.reject(failure);
    waiter = undefined;
  };
  const onMessage = (message: FromWorker) => {
    if (waiter) waiter.resolve(message);
    else queued.push(message);
    waiter = undefined;
  };
  const onError = (error: Error) =>
    fail(
      (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new AppError(
            "PAYLOAD_TOO_LARGE",
            "The file is too large to read, so nothing was imported. Split it into smaller files and import each.",
          )
        : error,
    );
  const onExit = (code: number) => fail(new Error(`The import's reader thread ended (exit code ${code})`));
  worker.on("message", onMessage);
  worker.on("error", onError);
  worker.on("exit", onExit);
  return {
    ask(message: ToWorker): Promise<FromWorker> {
      if (failure) return Promise.reject(failure);
      worker.postMessage(message);
      const ready = queued.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    close() {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    },
  };
}

/**
 * The chats of an uploaded file, read in a worker thread: the whole file is checked before the first chat comes
 * (a file that cannot be imported throws its 4xx `AppError` here, and nothing has been stored), then each chat
 * comes when asked for, so this thread only ever takes in one chat at a time. Parsing 50 MiB of JSON, checking it
 * and walking every tree take seconds of CPU, none of it on the thread that answers requests.
 */
export async function* readImport(upload: ImportUpload): AsyncGenerator<KeyedImportChat> {
  const worker = await borrowReader();
  const answers = inbox(worker);
  // Kept for the next import only when it ended in a known state: every chat handed over, or the file refused.
  let clean = false;
  try {
    const read = await answers.ask({ type: "read", bytes: upload.bytes, source: upload.source });
    if (read.type === "refused") {
      clean = true;
      throw new AppError(read.code, read.message, read.errors ? { errors: read.errors } : {});
    }
    for (;;) {
      const answer = await answers.ask({ type: "next" });
      if (answer.type !== "chat") {
        clean = answer.type === "end";
        return;
      }
      yield { chat: answer.chat, key: answer.key };
    }
  } finally {
    answers.close();
    returnReader(worker, clean && upload.bytes.byteLength <= KEEP_AFTER_BYTES);
  }
}
