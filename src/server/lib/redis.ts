import { Redis } from "ioredis";
import { addressWithoutPassword } from "./log-redaction.js";

export interface RedisLink {
  /** Commands (counters, publish). */
  client: Redis;
  /** A second connection: a subscribed Redis connection can run nothing else. */
  subscriber: Redis;
  close(): Promise<void>;
}

/** The address without its password, for messages. */
export function describeRedisUrl(url: string): string {
  return addressWithoutPassword(url, "(not a valid URL)");
}

/**
 * Connects both connections at start; an unreachable Redis stops the start with an error that names
 * REDIS_URL. Later outages do not stop the app: ioredis reconnects, the counters count in the database
 * meanwhile (counter-store.ts) and session broadcasts are sent without waiting (sessions/session-store.ts).
 */
export async function connectRedis(url: string, options: { connectTimeoutMs?: number } = {}): Promise<RedisLink> {
  const redisOptions = {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
  } as const;
  const client = new Redis(url, redisOptions);
  const subscriber = new Redis(url, redisOptions);
  // Errors are reported through failed commands; an unhandled 'error' event would crash the process.
  let lastError: Error | undefined;
  client.on("error", (error: Error) => {
    lastError = error;
  });
  subscriber.on("error", () => {});
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    const reason = (lastError ?? (error instanceof Error ? error : new Error(String(error)))).message;
    throw new Error(`REDIS_URL: cannot reach Redis at ${describeRedisUrl(url)} (${reason}). Start Redis, or unset REDIS_URL.`);
  }
  return {
    client,
    subscriber,
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
