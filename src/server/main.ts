// First: an older Node stops here with a message naming the one to use (require-node.ts).
import "./require-node.js";
import path from "node:path";
import { buildApp } from "./app.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/client.js";
import { collectStartupGarbage } from "./lib/lean-memory.js";
import { describeError } from "./lib/log-redaction.js";
import { connectRedis } from "./lib/redis.js";

const SHUTDOWN_GRACE_MS = 10_000;
/** After the requests a first visitor makes on arrival (the page, its reads), not in their way. */
const STARTUP_GC_DELAY_MS = 1_000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: config.DATABASE_URL ? undefined : path.resolve(config.DATA_DIR, "pglite"),
    pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL) : undefined;
  const app = await buildApp({ config, database, redis });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: finishing in-flight requests, then closing the database`);
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close();
      await redis?.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "closing failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  // A burst of connections (a thousand replies opened at once, bench/concurrent-streams) overflowed Node's
  // default queue of 511 and waited for the client's SYN retry (1 s, then 3 s); the kernel caps it at somaxconn.
  await app.listen({ host: config.HOST, port: config.PORT, backlog: 4096 });
  const where = database.kind === "pglite" ? `embedded PGlite in ${path.resolve(config.DATA_DIR, "pglite")}` : "PostgreSQL";
  app.log.info(`Ready on http://localhost:${config.PORT} (database: ${where}${redis ? ", Redis linked" : ""})`);
  setTimeout(collectStartupGarbage, STARTUP_GC_DELAY_MS).unref();
}

main().catch((error) => {
  // A boot failure (a migration, the orphan sweep) may be a failed query: its message without the values.
  console.error(describeError(error));
  process.exit(1);
});
