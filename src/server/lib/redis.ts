import { Redis } from "ioredis";

export interface RedisLink {
  /** Commands (counters, publish). */
  client: Redis;
  /** A second connection: a subscribed Redis connection can run nothing else. */
  subscriber: Redis;
  close(): Promise<void>;
}

export async function connectRedis(url: string): Promise<RedisLink> {
  const options = { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: true } as const;
  const client = new Redis(url, options);
  const subscriber = new Redis(url, options);
  // Errors are reported through failed commands; an unhandled 'error' event would crash the process.
  client.on("error", () => {});
  subscriber.on("error", () => {});
  await Promise.all([client.connect(), subscriber.connect()]);
  return {
    client,
    subscriber,
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
