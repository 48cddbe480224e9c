/**
 * The import's reader thread (started by `import-reader.ts`, compiled beside main.js as import-worker.js): it reads
 * an uploaded file (UTF-8, JSON, limits, format, keys; `readImportBytes`) away from the thread that answers
 * requests, then hands its chats over one at a time, each when the server asks for the next, so the server never
 * takes in more than one chat at once. One file at a time; it may read another one after.
 *
 *   in:  { bytes, source }, then { type: "next" } for each chat
 *   out: { type: "refused", ... } (the 4xx of a file that cannot be imported) or { type: "read", chats },
 *        then { type: "chat", chat, key } per chat and { type: "end" }
 */
import { parentPort } from "node:worker_threads";
import { AppError } from "../../lib/app-error.js";
import type { KeyedImportChat } from "./import-chat.js";
import { type ImportSource, readImportBytes } from "./read-import-file.js";

export type ToWorker = { type: "read"; bytes: Uint8Array; source: ImportSource } | { type: "next" };
export type FromWorker =
  | { type: "refused"; code: AppError["code"]; message: string; errors?: Record<string, string> }
  | { type: "read"; chats: number }
  | ({ type: "chat" } & KeyedImportChat)
  | { type: "end" };

const port = parentPort;
if (!port) throw new Error("import-worker.ts runs as a worker thread (import-reader.ts starts it)");

let chats: (KeyedImportChat | undefined)[] = [];
let next = 0;
const send = (message: FromWorker) => port.postMessage(message);

port.on("message", (message: ToWorker) => {
  if (message.type === "read") {
    chats = [];
    next = 0;
    try {
      chats = readImportBytes(message.bytes, message.source);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      send({ type: "refused", code: error.code, message: error.message, errors: error.extra.errors });
      return;
    }
    send({ type: "read", chats: chats.length });
    return;
  }
  const chat = chats[next];
  if (!chat) {
    send({ type: "end" });
    return;
  }
  // Handed over: this thread lets go of it.
  chats[next] = undefined;
  next += 1;
  send({ type: "chat", ...chat });
});
