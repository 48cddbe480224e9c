import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PgliteWorkerData, PgliteWorkerMessage } from "./pglite-worker.js";

export interface PgliteThread {
  /** Where `pg` finds the socket: its `host` (a folder), with port 5432. */
  socketDir: string;
  close(): Promise<void>;
}

/** The socket's name in its folder: where `pg` looks for port 5432 when its host is a folder. */
export const SOCKET_FILE = ".s.PGSQL.5432";

/** The folder of a data folder's socket, inside it: a backup reaches a running server there (decision 073). */
export function socketDirOf(pgliteDir: string): string {
  return path.join(pgliteDir, "lumora-socket");
}

/**
 * Starts the embedded database on a thread of its own (pglite-worker.ts) and waits until its socket listens. An
 * in-memory database (tests) gets a private temporary folder for its socket, removed on close.
 */
export async function startPgliteThread(dir: string | undefined, sharedBuffers: string, templateFile?: string): Promise<PgliteThread> {
  const temporary = dir ? undefined : mkdtempSync(path.join(tmpdir(), "lumora-db-"));
  const socketDir = dir ? socketDirOf(dir) : (temporary as string);
  const fromSource = import.meta.url.endsWith(".ts");
  const script = new URL(`./pglite-worker.${fromSource ? "ts" : "js"}`, import.meta.url);
  const data: PgliteWorkerData = { dir, sharedBuffers, socketDir, templateFile: dir ? undefined : templateFile };
  // Under tsx and Vitest the worker's TypeScript runs through tsx; the compiled server runs the .js as it is.
  const worker = new Worker(script, { workerData: data, ...(fromSource ? { execArgv: ["--import", "tsx"] } : {}) });
  const removeTemporary = () => {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  };
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`the embedded database's thread stopped (exit code ${code})`)));
      worker.on("message", (message: PgliteWorkerMessage) => {
        if (message.type === "ready") resolve();
        if (message.type === "failed") reject(new Error(message.message));
      });
    });
  } catch (error) {
    await worker.terminate();
    removeTemporary();
    throw error;
  }
  worker.removeAllListeners("error");
  // A failure of the thread after start (out of memory in the engine): the server cannot go on without its database.
  worker.on("error", (error) => {
    console.error(`The embedded database's thread failed: ${error.message}`);
    process.exit(1);
  });
  let closing: Promise<void> | undefined;
  return {
    socketDir,
    close() {
      closing ??= (async () => {
        worker.postMessage("close");
        await Promise.race([
          new Promise<void>((resolve) => worker.on("message", (message: PgliteWorkerMessage) => message.type === "closed" && resolve())),
          exited,
        ]);
        await worker.terminate();
        removeTemporary();
      })();
      return closing;
    },
  };
}
