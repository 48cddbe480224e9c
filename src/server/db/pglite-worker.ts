/**
 * The embedded database's own thread (pglite-thread.ts starts it): PGlite, and a PostgreSQL wire-protocol server on
 * a Unix socket in front of it, which the server reaches with the same `pg` driver it uses for PostgreSQL. A long
 * statement here holds this thread, never the one that answers requests.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import { createPglite } from "./pglite-engine.js";
import { PgliteSessionQueue } from "./pglite-session-queue.js";
import { SOCKET_FILE } from "./pglite-thread.js";

export interface PgliteWorkerData {
  /** The database folder; absent: in memory. */
  dir?: string;
  /** In memory only: a tarball of a data folder to start from (createPglite's `template`). */
  templateFile?: string;
  sharedBuffers: string;
  /** A folder only this user may enter (0700), where the socket `.s.PGSQL.5432` is made. */
  socketDir: string;
}

export type PgliteWorkerMessage = { type: "ready" } | { type: "failed"; message: string } | { type: "closed" };

if (!parentPort) throw new Error("pglite-worker runs as a worker thread");
const port = parentPort;
const data = workerData as PgliteWorkerData;
const send = (message: PgliteWorkerMessage) => port.postMessage(message);

async function start() {
  const template = data.templateFile ? new Blob([readFileSync(data.templateFile)]) : undefined;
  const db = await createPglite(data.dir, data.sharedBuffers, template);
  const queue = new PgliteSessionQueue(db);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // The library's handler reads the protocol's messages and writes the answers; the queue decides whose turn it is.
    const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
    handler.attach(socket).catch(() => socket.destroy());
  });
  mkdirSync(data.socketDir, { recursive: true, mode: 0o700 });
  chmodSync(data.socketDir, 0o700);
  const socketPath = path.join(data.socketDir, SOCKET_FILE);
  // A socket left by a process killed with -9: nobody listens on it (the folder's lock says this process owns it).
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  port.on("message", async (message: unknown) => {
    if (message !== "close") return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    if (!db.closed) await db.close();
    send({ type: "closed" });
  });
  send({ type: "ready" });
}

start().catch((error: unknown) => send({ type: "failed", message: error instanceof Error ? error.message : String(error) }));
