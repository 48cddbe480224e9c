import type { StreamEvent } from "../../../../shared/contracts/chat.js";
import type { ToolCall } from "../../../../shared/contracts/tools.js";
import type { RedisLink } from "../../../lib/redis.js";

/** What a follower on another instance receives. */
export type MirrorEvent = Extract<StreamEvent, { type: "delta" | "tool" | "done" | "error" }>;
type Listener = (event: MirrorEvent) => void;

/**
 * A reply is named by the instance that writes it (a random id per process) and its message id:
 * message ids repeat across databases (a reset, tests, two deployments on one Redis), instance ids do not.
 */
export interface GenerationRef {
  owner: string;
  messageId: number;
}
const STOP_CHANNEL = "gen:stop";
const name = (ref: GenerationRef) => `${ref.owner}:${ref.messageId}`;
const eventsChannel = (ref: GenerationRef) => `gen:events:${name(ref)}`;
const contentKey = (ref: GenerationRef) => `gen:content:${name(ref)}`;
const doneKey = (ref: GenerationRef) => `gen:done:${name(ref)}`;
const toolsKey = (ref: GenerationRef) => `gen:tools:${name(ref)}`;
const instanceKey = (instanceId: string) => `gen:instance:${instanceId}`;
const KEEP_SECONDS = 3600;

/**
 * With several instances (REDIS_URL), a reply is mirrored to Redis as it grows:
 * the text so far in a key (APPEND), each piece on a channel; its tool calls (issue 34) as their whole list in a key
 * and each change of one on the channel, so a follower elsewhere sees the cards live. A reload that lands
 * on another instance follows it from there, and Stop reaches the instance that
 * runs it. Without Redis there is one instance and none of this is needed.
 */
export class RedisGenerationMirror {
  private readonly listeners = new Map<string, Set<Listener>>();
  private stopHandler: (ref: GenerationRef) => void = () => {};
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: RedisLink,
    private readonly instanceId: string,
  ) {}

  async start(onStop: (ref: GenerationRef) => void): Promise<void> {
    this.stopHandler = onStop;
    this.redis.subscriber.on("message", (channel: string, text: string) => {
      if (channel === STOP_CHANNEL) return this.stopHandler(JSON.parse(text) as GenerationRef);
      const listeners = this.listeners.get(channel);
      if (!listeners) return;
      const event = JSON.parse(text) as MirrorEvent;
      for (const listener of listeners) listener(event);
    });
    await this.redis.subscriber.subscribe(STOP_CHANNEL);
    const beat = () => this.redis.client.set(instanceKey(this.instanceId), "1", "EX", 15).catch(() => {});
    await beat();
    this.heartbeat = setInterval(beat, 5000);
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.redis.client.del(instanceKey(this.instanceId)).catch(() => {});
  }

  /** Fire and forget: one connection keeps the order; a Redis hiccup must not stop the reply. */
  append(ref: GenerationRef, offset: number, text: string): void {
    this.redis.client
      .multi()
      .append(contentKey(ref), text)
      .expire(contentKey(ref), KEEP_SECONDS)
      .publish(eventsChannel(ref), JSON.stringify({ type: "delta", messageId: ref.messageId, offset, text }))
      .exec()
      .catch(() => {});
  }

  /** A tool call started, paused for approval or ended: the reply's calls as they now are, and the change, published. */
  toolCall(ref: GenerationRef, calls: readonly ToolCall[], event: Extract<MirrorEvent, { type: "tool" }>): void {
    this.redis.client
      .multi()
      .set(toolsKey(ref), JSON.stringify(calls), "EX", KEEP_SECONDS)
      .publish(eventsChannel(ref), JSON.stringify(event))
      .exec()
      .catch(() => {});
  }

  /**
   * The reply ended: followers get its last events (an error, then its `done`). `keepText` when its end could not be
   * saved yet: the text so far stays in Redis, so whoever closes the row later still has all of it.
   */
  finish(
    ref: GenerationRef,
    done: Extract<MirrorEvent, { type: "done" }>,
    error?: { message: string; status: number },
    keepText = false,
  ): void {
    const pipeline = this.redis.client.multi().set(doneKey(ref), JSON.stringify(done), "EX", KEEP_SECONDS);
    if (error) pipeline.publish(eventsChannel(ref), JSON.stringify({ type: "error", ...error }));
    pipeline.publish(eventsChannel(ref), JSON.stringify(done));
    if (!keepText) pipeline.del(contentKey(ref), toolsKey(ref));
    pipeline.exec().catch(() => {});
  }

  async requestStop(ref: GenerationRef): Promise<void> {
    await this.redis.client.publish(STOP_CHANNEL, JSON.stringify(ref));
  }

  async isInstanceAlive(instanceId: string): Promise<boolean> {
    return (await this.redis.client.exists(instanceKey(instanceId))) === 1;
  }

  async contentSoFar(ref: GenerationRef): Promise<string | null> {
    return this.redis.client.get(contentKey(ref));
  }

  /**
   * Follows a reply running elsewhere: subscribes first, then reads the text so far,
   * so nothing falls between the two (the follower drops repeats by offset).
   */
  async follow(
    ref: GenerationRef,
    listener: Listener,
  ): Promise<{ content: string | null; toolCalls: ToolCall[] | null; done: MirrorEvent | null; stop(): void }> {
    const channel = eventsChannel(ref);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.redis.subscriber.subscribe(channel);
    }
    set.add(listener);
    const [content, tools, done] = await Promise.all([
      this.redis.client.get(contentKey(ref)),
      this.redis.client.get(toolsKey(ref)),
      this.redis.client.get(doneKey(ref)),
    ]);
    return {
      content,
      toolCalls: tools ? (JSON.parse(tools) as ToolCall[]) : null,
      done: done ? (JSON.parse(done) as MirrorEvent) : null,
      stop: () => {
        set.delete(listener);
        if (set.size === 0) {
          this.listeners.delete(channel);
          this.redis.subscriber.unsubscribe(channel).catch(() => {});
        }
      },
    };
  }
}
