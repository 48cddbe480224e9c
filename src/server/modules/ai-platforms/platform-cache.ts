import type { LanguageModel } from "../../ai/generate.js";
import { languageModelFor } from "../../ai/language-model.js";
import type { RedisLink } from "../../lib/redis.js";
import { accessFor, type PlatformDeps, type PlatformRow } from "./platform-view.js";

const INVALIDATE_CHANNEL = "platforms:invalidate";
/** How long a row is trusted without a word from Redis: bounds staleness if a broadcast is lost (Redis down). */
const TTL_MS = 5_000;

interface Entry {
  row: PlatformRow | undefined;
  at: number;
}

/**
 * The AI platforms as a reply resolves them (issue 15: resolution off the hot path): rows by slug, and the
 * language model per platform version and model id (its key opened once, not per reply). Every admin change
 * clears this instance's cache at once and, through Redis, every other instance's; without a word (Redis
 * away) an entry is trusted for 5 s at most.
 */
export class PlatformCache {
  private readonly rows = new Map<string, Entry>();
  private readonly models = new Map<string, LanguageModel>();
  private generation = 0;

  constructor(private readonly options: { redis?: RedisLink; log?: (message: string, error?: unknown) => void } = {}) {}

  async start(): Promise<void> {
    const redis = this.options.redis;
    if (!redis) return;
    await redis.subscriber.subscribe(INVALIDATE_CHANNEL);
    redis.subscriber.on("message", (channel) => {
      if (channel === INVALIDATE_CHANNEL) this.clear();
    });
  }

  /** The platform with this slug (undefined when there is none), from the cache or one read. */
  async bySlug(slug: string, read: () => Promise<PlatformRow | undefined>): Promise<PlatformRow | undefined> {
    const cached = this.rows.get(slug);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.row;
    const generation = this.generation;
    const row = await read();
    // A change landed while reading: this row may predate it, so it is not kept.
    if (generation === this.generation) this.rows.set(slug, { row, at: Date.now() });
    return row;
  }

  /** The language model for a platform row as read; a changed row (a new key, address or kind) gets a new one. */
  modelFor(row: PlatformRow, deps: PlatformDeps, modelId: string): LanguageModel {
    const key = `${row.id}\u0000${row.updatedAt.getTime()}\u0000${modelId}`;
    let model = this.models.get(key);
    if (!model) {
      model = languageModelFor(accessFor(row, deps), modelId);
      this.models.set(key, model);
    }
    return model;
  }

  /** After an admin change: this instance forgets now, the others when Redis tells them. */
  changed(): void {
    this.clear();
    this.options.redis?.client
      .publish(INVALIDATE_CHANNEL, "1")
      .catch((error: unknown) => this.options.log?.("telling other instances about an AI platform change failed", error));
  }

  private clear(): void {
    this.generation++;
    this.rows.clear();
    this.models.clear();
  }
}
