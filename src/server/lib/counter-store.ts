import type { Redis } from "ioredis";

export interface CounterState {
  count: number;
  /** Milliseconds until the window of this key ends. */
  resetInMs: number;
}

/**
 * Fixed-window counters for throttling. In memory for one process; in Redis
 * when REDIS_URL is set so that every instance counts the same attempts.
 */
export interface CounterStore {
  hit(key: string, windowMs: number): Promise<CounterState>;
  peek(key: string): Promise<CounterState>;
  reset(key: string): Promise<void>;
}

export function createMemoryCounterStore(now: () => number = Date.now): CounterStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const live = (key: string) => {
    const entry = counters.get(key);
    if (entry && entry.expiresAt <= now()) {
      counters.delete(key);
      return undefined;
    }
    return entry;
  };
  // Expired keys are dropped on a timer so a flood of distinct keys cannot grow the map forever.
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of counters) if (entry.expiresAt <= t) counters.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs) {
      const entry = live(key) ?? { count: 0, expiresAt: now() + windowMs };
      entry.count += 1;
      counters.set(key, entry);
      return { count: entry.count, resetInMs: entry.expiresAt - now() };
    },
    async peek(key) {
      const entry = live(key);
      return entry ? { count: entry.count, resetInMs: entry.expiresAt - now() } : { count: 0, resetInMs: 0 };
    },
    async reset(key) {
      counters.delete(key);
    },
  };
}

export function createRedisCounterStore(redis: Redis, prefix = "throttle:"): CounterStore {
  return {
    async hit(key, windowMs) {
      const result = await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowMs, "NX")
        .pttl(prefix + key)
        .exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetInMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
