import { randomUUID } from "node:crypto";
import { and, eq, isNull, ne, or } from "drizzle-orm";
import type { Message, StreamEvent } from "../../../../shared/contracts/chat.js";
import { type ModelMessage, streamCompletion } from "../../../ai/generate.js";
import { toProviderError } from "../../../ai/provider-error.js";
import type { Db } from "../../../db/client.js";
import { messages } from "../../../db/schema/index.js";
import type { RedisLink } from "../../../lib/redis.js";
import type { ResolvedModel } from "../../ai-platforms/resolve-platform.js";
import { toMessage } from "../chat-view.js";
import { RedisGenerationMirror } from "./generation-mirror.js";

type LocalEvent = Extract<StreamEvent, { type: "delta" | "done" | "error" }>;
type StopReason = "user" | "shutdown";

export const STOPPED_BY_USER = "Stopped before the end.";
export const STOPPED_BY_RESTART = "The server restarted before this reply finished.";
const SAVE_EVERY_MS = 1000;

/** A reply being written on this instance. */
export class LiveGeneration {
  content = "";
  finished: LocalEvent[] | null = null;
  readonly listeners = new Set<(event: LocalEvent) => void>();
  readonly controller = new AbortController();
  stopReason: StopReason | null = null;
  constructor(
    readonly messageId: number,
    readonly chatId: number,
  ) {}

  emit(event: LocalEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

export interface StartGeneration {
  messageId: number;
  chatId: number;
  resolved: ResolvedModel;
  system: string | undefined;
  history: ModelMessage[];
  temperature: number;
  maxTokens: number;
}

/**
 * Runs replies apart from the HTTP connections that asked for them: a reload or
 * a dropped connection never stops a reply; only Stop, a provider failure or a
 * shutdown ends one early. The text is saved at least every second.
 */
export class GenerationManager {
  readonly instanceId = randomUUID();
  private readonly live = new Map<number, LiveGeneration>();
  private readonly running = new Set<Promise<void>>();
  readonly mirror: RedisGenerationMirror | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      db: Db;
      redis?: RedisLink;
      firstChunkMs: number;
      chunkMs: number;
      log: (msg: string, err?: unknown) => void;
    },
  ) {
    this.mirror = options.redis ? new RedisGenerationMirror(options.redis, this.instanceId) : undefined;
  }

  async start(): Promise<void> {
    await this.mirror?.start((ref) => {
      if (ref.owner === this.instanceId) this.abortLocal(ref.messageId, "user");
    });
    await this.recoverOrphans();
    // Another instance may die mid-reply: its replies are closed by whoever sees it first.
    this.sweeper = setInterval(() => void this.recoverOrphans().catch((e) => this.options.log("orphan sweep failed", e)), 30_000);
    this.sweeper.unref();
  }

  private ref(messageId: number) {
    return { owner: this.instanceId, messageId };
  }

  get(messageId: number): LiveGeneration | undefined {
    return this.live.get(messageId);
  }

  /** Stops a reply wherever it runs (`owner`: the instance writing it); true when this instance had it. */
  async stop(messageId: number, owner: string | null): Promise<boolean> {
    if (this.abortLocal(messageId, "user")) return true;
    if (owner) await this.mirror?.requestStop({ owner, messageId });
    return false;
  }

  private abortLocal(messageId: number, reason: StopReason): boolean {
    const generation = this.live.get(messageId);
    if (!generation) return false;
    generation.stopReason ??= reason;
    generation.controller.abort();
    return true;
  }

  begin(input: StartGeneration): LiveGeneration {
    const generation = new LiveGeneration(input.messageId, input.chatId);
    this.live.set(input.messageId, generation);
    const run = this.run(generation, input)
      .catch((error) => this.options.log("generation crashed", error))
      .finally(() => {
        this.live.delete(input.messageId);
        this.running.delete(run);
      });
    this.running.add(run);
    return generation;
  }

  private async run(generation: LiveGeneration, input: StartGeneration): Promise<void> {
    const { db } = this.options;
    const { platform, modelId, model } = input.resolved;
    let saved = 0;
    let writes: Promise<unknown> = Promise.resolve();
    const save = () => {
      if (generation.content.length === saved) return;
      const content = generation.content;
      saved = content.length;
      writes = writes.then(() =>
        db
          .update(messages)
          .set({ content, updatedAt: new Date() })
          .where(eq(messages.id, generation.messageId))
          .catch((e) => this.options.log("saving a reply failed", e)),
      );
    };
    const saver = setInterval(save, SAVE_EVERY_MS);
    // The SDK's first-chunk timer starts only once the provider has sent its headers;
    // this one also covers a provider that accepts the request and never answers.
    let timedOut = false;
    const firstChunkTimer = setTimeout(() => {
      timedOut = true;
      generation.controller.abort();
    }, this.options.firstChunkMs);
    let failure: unknown;
    let usage: { inputTokens?: number; outputTokens?: number } | undefined;
    try {
      const parts = streamCompletion({
        model,
        system: input.system,
        messages: input.history,
        temperature: input.temperature,
        maxOutputTokens: input.maxTokens,
        abortSignal: generation.controller.signal,
        // No silent retry: a person is watching, the error shows at once and Regenerate is one click.
        maxRetries: 0,
        timeout: { firstChunkMs: this.options.firstChunkMs, chunkMs: this.options.chunkMs },
      });
      for await (const part of parts) {
        if (part.type === "text") {
          clearTimeout(firstChunkTimer);
          const offset = generation.content.length;
          generation.content += part.text;
          generation.emit({ type: "delta", messageId: generation.messageId, offset, text: part.text });
          this.mirror?.append(this.ref(generation.messageId), offset, part.text);
        } else if (part.type === "finish") usage = part.usage;
        else if (part.type === "error") throw part.error;
        else if (part.type === "abort") {
          // An abort nobody asked for is the SDK's own chunk timeout.
          if (!generation.stopReason)
            failure = Object.assign(new Error(part.reason ?? "timeout of chunk exceeded"), { name: "TimeoutError" });
          break;
        }
      }
    } catch (error) {
      if (!generation.stopReason) failure = error;
    } finally {
      clearInterval(saver);
      clearTimeout(firstChunkTimer);
    }
    if (timedOut && !generation.stopReason) failure = Object.assign(new Error("first chunk timeout"), { name: "TimeoutError" });
    await writes;

    const providerError = failure ? toProviderError(failure, platform.name, modelId) : undefined;
    const stopped = generation.stopReason === "user" ? STOPPED_BY_USER : generation.stopReason === "shutdown" ? STOPPED_BY_RESTART : null;
    const status = providerError || stopped ? (generation.content ? "incomplete" : "failed") : "complete";
    const [row] = await db
      .update(messages)
      .set({
        content: generation.content,
        status,
        error: providerError?.message ?? stopped,
        inputTokens: usage?.inputTokens ?? null,
        outputTokens: usage?.outputTokens ?? null,
        generationOwner: null,
        updatedAt: new Date(),
      })
      .where(eq(messages.id, generation.messageId))
      .returning();
    if (!row) {
      // The chat was deleted while the reply was being written: end whoever still follows it.
      const gone: LocalEvent = { type: "error", message: "This chat was deleted.", status: 404 };
      generation.finished = [gone];
      generation.emit(gone);
      return;
    }
    const final: Message = toMessage(row);
    const events: LocalEvent[] = [];
    const errorInfo = providerError ? { message: providerError.message, status: providerError.statusCode } : undefined;
    if (errorInfo) events.push({ type: "error", ...errorInfo });
    events.push({ type: "done", assistantMessage: final });
    generation.finished = events;
    for (const event of events) generation.emit(event);
    this.mirror?.finish(this.ref(generation.messageId), final, errorInfo);
  }

  /**
   * Replies left "streaming" by an instance that is gone (a restart, a crash):
   * keep what arrived (Redis may hold more than the last save) and mark them incomplete.
   */
  async recoverOrphans(): Promise<void> {
    const { db } = this.options;
    const rows = await db
      .select({ id: messages.id, owner: messages.generationOwner, content: messages.content })
      .from(messages)
      .where(and(eq(messages.status, "streaming"), or(isNull(messages.generationOwner), ne(messages.generationOwner, this.instanceId))));
    for (const row of rows) {
      if (this.mirror && row.owner && (await this.mirror.isInstanceAlive(row.owner))) continue;
      const mirrored = (row.owner ? await this.mirror?.contentSoFar({ owner: row.owner, messageId: row.id }) : null) ?? "";
      const content = mirrored.length > row.content.length ? mirrored : row.content;
      const [closed] = await db
        .update(messages)
        .set({
          content,
          status: content ? "incomplete" : "failed",
          error: STOPPED_BY_RESTART,
          generationOwner: null,
          updatedAt: new Date(),
        })
        .where(and(eq(messages.id, row.id), eq(messages.status, "streaming")))
        .returning();
      // Followers on other instances are waiting on the dead instance's channel: tell them it ended.
      if (closed && row.owner) this.mirror?.finish({ owner: row.owner, messageId: row.id }, toMessage(closed));
    }
  }

  /** Shutdown: stop every reply here, keep what arrived, and let their streams end. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const id of this.live.keys()) this.abortLocal(id, "shutdown");
    // Each reply saves what arrived and sends its last event; a loaded machine may need a few seconds for that.
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => setTimeout(r, 10_000))]);
    await this.mirror?.close();
  }
}
