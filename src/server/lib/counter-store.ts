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

/** How long a counter call waits for Redis before it counts in the fallback instead. */
const REDIS_TIMEOUT_MS = 500;
/** After a failure on a connection that still looks ready (no answer), Redis is tried again at most this often. */
const RETRY_AFTER_FAILURE_MS = 2_000;

export interface RedisCounterOptions {
  /** Key prefix in Redis. */
  prefix?: string;
  /**
   * Where counts go while Redis does not answer: the database (`createDatabaseCounterStore`) so every
   * instance still counts the same attempts; an in-memory store of this process when not given.
   */
  fallback?: CounterStore;
  /** Told once when Redis stops answering and once when it answers again (not per request). */
  log?: (message: string) => void;
  timeoutMs?: number;
  retryAfterFailureMs?: number;
}

export const REDIS_DOWN_MESSAGE = "Redis unavailable: counters use the database";
export const REDIS_BACK_MESSAGE = "Redis answers again: counters use Redis";

/**
 * Counters in Redis (one INCR per hit, so parallel hits on every instance count one by one). Degraded,
 * not broken: while the connection is not ready, or a call fails or takes longer than `timeoutMs`, the
 * counts go to `fallback`; once the connection is ready again they go back to Redis.
 */
export function createRedisCounterStore(redis: Redis, options: RedisCounterOptions = {}): CounterStore {
  const prefix = options.prefix ?? "throttle:";
  const fallback = options.fallback ?? createMemoryCounterStore();
  const log = options.log ?? ((message: string) => console.warn(message));
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? RETRY_AFTER_FAILURE_MS;
  let degraded = false;
  /** While Redis does not answer on a connection that looks ready, the time of the next try. */
  let nextTryAt = 0;

  const primary: CounterStore = {
    async hit(key, windowMs) {
      const result = await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowMs, "NX")
        .pttl(prefix + key)
        .exec();
      const failed = result?.find(([error]) => error);
      if (!result || failed) throw failed?.[0] ?? new Error("Redis transaction aborted");
      const count = Number(result[0]?.[1] ?? 0);
      const ttl = Number(result[2]?.[1] ?? windowMs);
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

  const downMessage = options.fallback ? REDIS_DOWN_MESSAGE : "Redis unavailable: counters use this instance's memory";
  const wentDown = () => {
    if (degraded) return;
    degraded = true;
    log(downMessage);
  };

  async function call<T>(run: (store: CounterStore) => Promise<T>): Promise<T> {
    // A connection that is not ready would queue the command and retry for seconds: count elsewhere at once.
    if (redis.status !== "ready") {
      wentDown();
      nextTryAt = 0;
      return run(fallback);
    }
    // It looks ready but did not answer lately (a network partition): one try now and then, not per request.
    if (degraded && Date.now() < nextTryAt) return run(fallback);
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        run(primary),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("Redis did not answer in time")), timeoutMs);
        }),
      ]);
      if (degraded) {
        degraded = false;
        log(REDIS_BACK_MESSAGE);
      }
      return answer;
    } catch {
      wentDown();
      nextTryAt = Date.now() + retryAfterFailureMs;
      return run(fallback);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    hit: (key, windowMs) => call((store) => store.hit(key, windowMs)),
    peek: (key) => call((store) => store.peek(key)),
    // Also cleared in the fallback, so a count kept there during an outage does not come back with the next one.
    reset: async (key) => {
      await Promise.all([call((store) => store.reset(key)), fallback.reset(key)]);
    },
  };
}
