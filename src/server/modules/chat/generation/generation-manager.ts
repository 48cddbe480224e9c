import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Message, StreamEvent } from "../../../../shared/contracts/chat.js";
import { sliceWhole } from "../../../../shared/cut-text.js";
import { AiAllowance, type AiHold, type HoldSize, holdFor, spentTokens } from "../../../ai/allowance.js";
import { cleanProviderText } from "../../../ai/clean-text.js";
import { type CompletionPart, streamCompletion, type TextMessage } from "../../../ai/generate.js";
import { type ProviderFailureLog, toProviderError } from "../../../ai/provider-error.js";
import type { Db } from "../../../db/client.js";
import { messages, type StoredToolCall } from "../../../db/schema/index.js";
import { type IsInstanceAlive, ownedWork, stillOwned, sweepEach } from "../../../lib/liveness.js";
import type { RedisLink } from "../../../lib/redis.js";
import type { ResolvedModel } from "../../ai-platforms/resolve-platform.js";
import type { CallPlace, RunnableTool, ToolAnswer } from "../../tools/tools-service.js";
import { type MessageRow, toMessage, toToolCall } from "../chat-view.js";
import { doneEvent } from "../reply-end.js";
import { citationsOf, type GivenSource, nextSourceNumber } from "../reply-material.js";
import { callsEnded, lastStep, replyTurn, STOPPED_RESULT } from "../tool-steps.js";
import { type GenerationRef, RedisGenerationMirror } from "./generation-mirror.js";

type LocalEvent = Extract<StreamEvent, { type: "delta" | "tool" | "done" | "error" }>;
type StopReason = "user" | "shutdown";

export const STOPPED_BY_USER = "Stopped before the end.";
export const STOPPED_BY_RESTART = "The server restarted before this reply finished.";
export const SAVE_FAILED = "The end of this reply could not be saved (the database did not answer). What arrived is kept.";
export const INTERRUPTED = "This reply was interrupted before the end. What arrived is kept.";
const SAVE_EVERY_MS = 1000;
/** Orphans are looked for this often: a dead owner's heartbeat lapses in 15 s, so its replies close within 20 s. */
const SWEEP_EVERY_MS = 5000;
/** A reply whose end could not be saved is tried again this often until the database takes it. */
const RETRY_SAVE_MS = 2000;
/** Stop waits this long for the instance writing a reply to end it, then closes the row itself. */
const STOP_WAIT_MS = 5000;

type FinalFields = Pick<MessageRow, "content" | "status" | "error" | "inputTokens" | "outputTokens"> &
  Partial<Pick<MessageRow, "citations" | "toolCalls">>;

/** The tools a reply may call and their bounds (issue 34, decision 046; Platform Settings). */
export interface ReplyTools {
  tools: readonly RunnableTool[];
  /** Model steps that may call tools, at most (`tool_max_steps`). */
  maxSteps: number;
  /** Each call's time limit (`tool_call_timeout_seconds`). */
  timeoutMs: number;
}

/** What a tool's answer may be, at most, before it goes back to the model (and into the row). */
export const TOOL_RESULT_MAX_CHARS = 16_000;

type ModelToolCall = { id: string; name: string; input: string };
type StepUsage = { reported: boolean; inputTokens: number; outputTokens: number };
/** What a paused reply had spent and written before it went on: its tokens are added to its row's. */
type SpentSoFar = { inputTokens: number; outputTokens: number; content: number };
const NOTHING_SPENT: SpentSoFar = { inputTokens: 0, outputTokens: 0, content: 0 };

/** A call's arguments as an object, or null when the model wrote something else. */
function parseArgs(input: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(input || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A tool's answer is untrusted text: cleaned like a provider's, and cut to `TOOL_RESULT_MAX_CHARS`. */
export function capResult(text: string): string {
  const clean = cleanProviderText(text);
  if (clean.length <= TOOL_RESULT_MAX_CHARS) return clean;
  return `${sliceWhole(clean, TOOL_RESULT_MAX_CHARS)}\n[The tool's answer was cut: ${clean.length} characters, ${TOOL_RESULT_MAX_CHARS} kept.]`;
}

/**
 * One call, bounded by `timeoutMs` and by the reply's own end (Stop, shutdown): a failure, a timeout or a stop is an
 * error result for the model, never a thrown error, so the reply goes on.
 */
async function callTool(
  tool: RunnableTool,
  args: Record<string, unknown>,
  place: CallPlace,
  timeoutMs: number,
  replySignal: AbortSignal,
): Promise<ToolAnswer> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = AbortSignal.any([timeout.signal, replySignal]);
  const ended = new Promise<never>((_, reject) => {
    const end = () => reject(new Error("aborted"));
    if (signal.aborted) end();
    else signal.addEventListener("abort", end, { once: true });
  });
  ended.catch(() => {});
  try {
    return await Promise.race([tool.run(args, signal, place), ended]);
  } catch (error) {
    if (timeout.signal.aborted) {
      const seconds = Math.round(timeoutMs / 1000);
      return { text: `The tool did not answer within ${seconds} second${seconds === 1 ? "" : "s"}.`, isError: true };
    }
    if (replySignal.aborted) return { text: STOPPED_RESULT, isError: true };
    const reason = error instanceof Error ? error.message : String(error);
    return { text: `The tool failed: ${sliceWhole(reason, 500)}`, isError: true };
  } finally {
    clearTimeout(timer);
  }
}

/** A reply being written on this instance. */
export class LiveGeneration {
  content = "";
  /** The reply's tool calls so far (issue 34), as stored. */
  toolCalls: StoredToolCall[] = [];
  finished: LocalEvent[] | null = null;
  readonly listeners = new Set<(event: LocalEvent) => void>();
  stopReason: StopReason | null = null;
  constructor(
    readonly messageId: number,
    readonly chatId: number,
    readonly controller = new AbortController(),
  ) {}

  emit(event: LocalEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** What the provider is asked: known before any row is written. */
export interface GenerationRequest {
  chatId: number;
  resolved: ResolvedModel;
  system: string | undefined;
  history: TextMessage[];
  temperature: number;
  maxTokens: number;
  /** Where a provider failure is logged: the logger of the request that asked for the reply (its request id). */
  log: ProviderFailureLog;
  /**
   * The sources the reply was given as [n] (issue 30): held here for its run, so its end keeps the citations that name
   * one of them (a reply closed by another instance after a crash ends without citations, decision 037).
   */
  sources?: readonly GivenSource[];
  /** The tools it may call (issue 34); none: it is offered none. */
  tools?: ReplyTools;
}

/**
 * The reply's row: its id, and the reply as stored when it started (status streaming), the base of its last event if
 * its end cannot be saved; and the hold its start claimed (decision 028), settled when it ends.
 */
export interface StoredReply {
  messageId: number;
  message: Message;
  holdId: number;
}

/**
 * A reply whose start is stored by `write` (one statement, which claims the allowance with `hold`: the request's most,
 * decision 028; then the chat's checks and the rows) while its provider request is built; the request leaves only once
 * `write` succeeded, so a refused start never reaches the provider (decision 057). `stored` names the reply's row among
 * what `write` returned.
 */
export interface StartGeneration<T> extends GenerationRequest {
  write: (hold: HoldSize) => Promise<T>;
  stored: (written: T) => StoredReply;
}

/** A provider call already on its way: its parts, the first one already asked for. */
interface AskedStream {
  parts: AsyncIterator<CompletionPart>;
  first: Promise<IteratorResult<CompletionPart>>;
  firstChunkTimer: NodeJS.Timeout;
  timedOut: () => boolean;
}

/**
 * Runs replies apart from the HTTP connections that asked for them: a reload or
 * a dropped connection never stops a reply; only Stop, a provider failure or a
 * shutdown ends one early. The text is saved at least every second.
 */
export class GenerationManager {
  readonly instanceId = randomUUID();
  /** The holds of this instance's AI calls (replies here, and every other call through `platformDeps`), and their sweep. */
  readonly allowance: AiAllowance;
  private readonly live = new Map<number, LiveGeneration>();
  private readonly running = new Set<Promise<void>>();
  private readonly runs = new Map<number, Promise<void>>();
  /** Replies that ended here but whose end the database refused: saved again until it takes it. */
  private readonly unsaved = new Map<number, FinalFields>();
  private retry: NodeJS.Timeout | undefined;
  readonly mirror: RedisGenerationMirror | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      db: Db;
      redis?: RedisLink;
      firstChunkMs: number;
      chunkMs: number;
      /** Never gets message text: callers pass ids, and errors go through the log's error serializer (lib/log-redaction.ts), which drops query values. */
      log: (msg: string, err?: unknown) => void;
    },
  ) {
    this.mirror = options.redis ? new RedisGenerationMirror(options.redis, this.instanceId) : undefined;
    this.allowance = new AiAllowance({ db: options.db, owner: this.instanceId, log: options.log });
  }

  async start(): Promise<void> {
    await this.mirror?.start((ref) => {
      if (ref.owner === this.instanceId) this.abortLocal(ref.messageId, "user");
    });
    await this.recoverOrphans();
    // Another instance may die mid-reply: its replies are closed by whoever sees it first.
    this.sweeper = setInterval(() => void this.recoverOrphans().catch((e) => this.options.log("orphan sweep failed", e)), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  private ref(messageId: number) {
    return { owner: this.instanceId, messageId };
  }

  get(messageId: number): LiveGeneration | undefined {
    return this.live.get(messageId);
  }

  /**
   * Stops a reply whatever its state, and returns once its row is no longer streaming: the instance writing
   * it ends it (here, or elsewhere through Redis); one nobody writes (orphaned, its owner gone, its end
   * not saved) is closed here, with the longest text known, as stopped.
   *
   * True when this Stop ended it: its writer was told to stop, or this call closed the row. False when
   * something else closed it first (the orphan sweep, another Stop), so the caller never claims a Stop
   * whose row says otherwise.
   */
  async stop(row: Pick<MessageRow, "id" | "generationOwner" | "content">): Promise<boolean> {
    const { id: messageId, generationOwner: owner } = row;
    let toldWriter = false;
    if (this.abortLocal(messageId, "user")) {
      toldWriter = true;
      await Promise.race([this.runs.get(messageId), sleep(STOP_WAIT_MS)]);
    } else if (owner && owner !== this.instanceId && this.mirror && (await this.mirror.isInstanceAlive(owner))) {
      toldWriter = true;
      await this.mirror.requestStop({ owner, messageId });
      for (const end = Date.now() + STOP_WAIT_MS; Date.now() < end && (await this.isStreaming(messageId)); ) await sleep(100);
    }
    const content = await this.longestText(row);
    const unsaved = this.unsaved.get(messageId);
    this.unsaved.delete(messageId);
    const closed = await this.closeRow(messageId, {
      content,
      status: content ? "incomplete" : "failed",
      error: STOPPED_BY_USER,
      inputTokens: unsaved?.inputTokens ?? null,
      outputTokens: unsaved?.outputTokens ?? null,
    }).catch((error) => {
      if (unsaved) this.unsaved.set(messageId, unsaved);
      throw error;
    });
    if (closed && owner) this.finishMirror({ owner, messageId }, closed);
    return toldWriter || closed !== undefined;
  }

  private async isStreaming(messageId: number): Promise<boolean> {
    const [row] = await this.options.db.select({ status: messages.status }).from(messages).where(eq(messages.id, messageId)).limit(1);
    return row?.status === "streaming";
  }

  /** The most text known of a reply: this instance's unsaved end, Redis (the owner's mirror) or the row. */
  private async longestText(row: Pick<MessageRow, "id" | "generationOwner" | "content">): Promise<string> {
    const unsaved = this.unsaved.get(row.id)?.content ?? "";
    const ref = row.generationOwner ? { owner: row.generationOwner, messageId: row.id } : null;
    // Redis away: the row's text is what is left.
    const mirrored = (ref && (await this.mirror?.contentSoFar(ref).catch(() => null))) ?? "";
    const [longest = ""] = [unsaved, cleanProviderText(mirrored), row.content].sort((a, b) => b.length - a.length);
    return longest;
  }

  /** Ends a row still streaming (never one already ended); undefined when it was not streaming or is gone. */
  private async closeRow(messageId: number, fields: FinalFields): Promise<MessageRow | undefined> {
    // Closed by something other than its run (a Stop elsewhere, the sweep): a call it left running ends as stopped.
    const toolCalls = fields.toolCalls ?? callsEnded("running", "error", STOPPED_RESULT);
    const [row] = await this.options.db
      .update(messages)
      .set({ ...fields, toolCalls, generationOwner: null, updatedAt: new Date() })
      .where(and(eq(messages.id, messageId), eq(messages.status, "streaming")))
      .returning();
    return row;
  }

  /** Saves the ends the database refused so far; what still fails is tried again shortly. */
  private async saveUnsaved(): Promise<void> {
    for (const [messageId, fields] of [...this.unsaved]) {
      try {
        const closed = await this.closeRow(messageId, fields);
        if (this.unsaved.get(messageId) === fields) this.unsaved.delete(messageId);
        if (closed) this.finishMirror(this.ref(messageId), closed);
      } catch {
        // Still refused: the next round tries again (the first failure was logged).
      }
    }
    this.scheduleRetry();
  }

  /** Followers on other instances get the end of a reply closed here but not by its run: its `done`, with what it changed. */
  private finishMirror(ref: GenerationRef, closed: MessageRow): void {
    const mirror = this.mirror;
    if (mirror) void doneEvent(this.options.db, closed).then((done) => mirror.finish(ref, done));
  }

  private scheduleRetry(): void {
    if (this.retry || this.unsaved.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.saveUnsaved();
    }, RETRY_SAVE_MS);
    this.retry.unref();
  }

  private abortLocal(messageId: number, reason: StopReason): boolean {
    const generation = this.live.get(messageId);
    if (!generation) return false;
    generation.stopReason ??= reason;
    generation.controller.abort();
    return true;
  }

  /**
   * Starts a reply: stores its start (`write`: the claim, the hold, the chat's checks, the rows) and meanwhile builds its
   * provider request, which leaves once the start is stored (decision 057); then runs it here, apart from the request.
   * When the start is refused or fails, the request never leaves, the call is cancelled and the error is thrown.
   */
  async begin<T>(input: StartGeneration<T>): Promise<{ generation: LiveGeneration; written: T }> {
    const controller = new AbortController();
    // What the request may spend at most: its max output tokens and its prompt (ai/allowance.ts).
    const size = holdFor({ maxOutputTokens: input.maxTokens, prompt: [input.system, ...input.history.map((turn) => turn.content)] });
    // The start first, so its one statement is on its way to the database while the request is built (the prompt, the
    // model's SDK, the provider's body); the request itself waits for it.
    const writing = input.write(size);
    const asked = this.ask(input, controller, input.history, writing);
    let written: T;
    let stored: StoredReply;
    try {
      written = await writing;
      stored = input.stored(written);
      this.allowance.opened(stored.holdId);
    } catch (error) {
      controller.abort();
      clearTimeout(asked.firstChunkTimer);
      // The pending part settles with the abort; nothing is left running.
      void asked.first.then(() => asked.parts.return?.()).catch(() => {});
      throw error;
    }
    const hold: AiHold = { id: stored.holdId, promptEstimate: size.promptEstimate };
    const generation = this.attach(new LiveGeneration(stored.messageId, input.chatId, controller), input, stored.message, asked, hold);
    return { generation, written };
  }

  /**
   * Asks the provider (its first part is asked for, which starts the call): the request leaves now, or with `sendAfter`
   * once that is fulfilled (a reply's start, decision 057), never when it is rejected.
   */
  private ask(input: GenerationRequest, controller: AbortController, history = input.history, sendAfter?: Promise<unknown>): AskedStream {
    const { model } = input.resolved;
    const parts = streamCompletion({
      model,
      system: input.system,
      messages: history,
      tools: input.tools?.tools.map((tool) => tool.spec),
      temperature: input.temperature,
      maxOutputTokens: input.maxTokens,
      abortSignal: controller.signal,
      chunkMs: this.options.chunkMs,
      ...(sendAfter ? { sendAfter } : {}),
    });
    const first = parts.next();
    // Settled later by the run; a failure before then must not count as unhandled.
    first.catch(() => {});
    // The wait for the first text, from the moment the request is asked: also a provider that accepts it and never answers.
    let timedOut = false;
    const firstChunkTimer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.firstChunkMs);
    return { parts, first, firstChunkTimer, timedOut: () => timedOut };
  }

  private attach(
    generation: LiveGeneration,
    input: GenerationRequest,
    message: Message,
    asked: AskedStream | null,
    hold: AiHold,
    base: SpentSoFar = NOTHING_SPENT,
  ): LiveGeneration {
    const { messageId } = generation;
    this.live.set(messageId, generation);
    const run = this.run(generation, input, message, asked, hold, base)
      .catch((error) => this.options.log("generation crashed", error))
      .finally(() => {
        this.live.delete(messageId);
        this.running.delete(run);
        this.runs.delete(messageId);
      });
    this.running.add(run);
    this.runs.set(messageId, run);
    return generation;
  }

  /**
   * Goes on with a reply paused on a tool call (issue 34, decision 046), from its stored state, on whichever
   * instance was asked: its hold is claimed (429 beyond a limit), `write` turns its row back to streaming (owned
   * here; it throws when it cannot), then the calls the user answered run and the model is asked the next step.
   */
  async resume(
    input: GenerationRequest & { userId: number; maxRunning: number; write: () => Promise<MessageRow> },
  ): Promise<{ generation: LiveGeneration; row: MessageRow }> {
    const size = holdFor({ maxOutputTokens: input.maxTokens, prompt: [input.system, ...input.history.map((turn) => turn.content)] });
    const hold = await this.allowance.claim(input.userId, size, { maxRunning: input.maxRunning });
    let row: MessageRow;
    try {
      row = await input.write();
    } catch (error) {
      await this.allowance.settle(hold.id, 0);
      throw error;
    }
    const generation = new LiveGeneration(row.id, input.chatId);
    generation.content = row.content;
    generation.toolCalls = row.toolCalls.map((call) => ({ ...call }));
    const base = { inputTokens: row.inputTokens ?? 0, outputTokens: row.outputTokens ?? 0, content: row.content.length };
    this.attach(generation, input, toMessage(row), null, hold, base);
    return { generation, row };
  }

  /** Reads one model step: its text goes out as it comes; the tool calls it asks for are returned. */
  private async readStep(generation: LiveGeneration, asked: AskedStream, spent: StepUsage): Promise<ModelToolCall[]> {
    const calls: ModelToolCall[] = [];
    try {
      for (let next = await asked.first; !next.done; next = await asked.parts.next()) {
        const part = next.value;
        if (part.type === "text") {
          clearTimeout(asked.firstChunkTimer);
          const offset = generation.content.length;
          generation.content += part.text;
          generation.emit({ type: "delta", messageId: generation.messageId, offset, text: part.text });
          this.mirror?.append(this.ref(generation.messageId), offset, part.text);
        } else if (part.type === "tool-call") {
          clearTimeout(asked.firstChunkTimer);
          calls.push(part);
        } else if (part.type === "finish") {
          spent.reported = true;
          spent.inputTokens += part.usage.inputTokens ?? 0;
          spent.outputTokens += part.usage.outputTokens ?? 0;
        } else if (part.type === "error") throw part.error;
      }
    } catch (error) {
      throw asked.timedOut() ? Object.assign(new Error("first chunk timeout"), { name: "TimeoutError" }) : error;
    } finally {
      clearTimeout(asked.firstChunkTimer);
      // Ended early (a break or a throw): the stream is closed, as for-await would.
      await asked.parts.return?.().catch(() => {});
    }
    if (asked.timedOut() && !generation.stopReason) throw Object.assign(new Error("first chunk timeout"), { name: "TimeoutError" });
    return calls;
  }

  /** The calls a step asked for, stored in order: each runs, waits for the user, or is refused at once. */
  private recordCalls(generation: LiveGeneration, tools: ReplyTools, step: number, calls: ModelToolCall[]): void {
    for (const call of calls) {
      const tool = tools.tools.find((t) => t.spec.name === call.name);
      const args = parseArgs(call.input);
      const stored: StoredToolCall = {
        id: call.id,
        tool: tool?.id ?? call.name,
        name: tool?.name ?? call.name,
        step,
        args: args ?? {},
        result: null,
        status: "running",
        textOffset: generation.content.length,
      };
      if (!tool) Object.assign(stored, { status: "error", result: `There is no tool named ${call.name}.` });
      else if (!args) Object.assign(stored, { status: "error", result: "The arguments were not a JSON object." });
      else if (tool.needsApproval) stored.status = "awaiting-approval";
      generation.toolCalls.push(stored);
      this.emitCall(generation, stored);
    }
  }

  /**
   * Runs every call of the reply marked running (one after the other), each bounded by the call timeout. A call that
   * gives passages numbers them after every source the reply already has (its own, its earlier calls'; decision 055).
   */
  private async runCalls(
    generation: LiveGeneration,
    tools: ReplyTools,
    given: readonly GivenSource[],
    saveCalls: () => void,
  ): Promise<void> {
    for (const call of generation.toolCalls) {
      if (call.status !== "running") continue;
      if (generation.stopReason) {
        Object.assign(call, { status: "error", result: STOPPED_RESULT });
        continue;
      }
      const tool = tools.tools.find((t) => t.id === call.tool);
      const place = { firstSourceNumber: nextSourceNumber(given, generation.toolCalls) };
      const outcome: ToolAnswer = tool
        ? await callTool(tool, call.args as Record<string, unknown>, place, tools.timeoutMs, generation.controller.signal)
        : { text: `The tool ${call.tool} is not available to you.`, isError: true };
      Object.assign(call, { status: outcome.isError ? "error" : "done", result: capResult(outcome.text) });
      if (outcome.sources?.length) call.sources = outcome.sources;
      this.emitCall(generation, call);
      saveCalls();
    }
  }

  /** A call's change goes to this instance's followers and, through Redis, to those on other instances. */
  private emitCall(generation: LiveGeneration, call: StoredToolCall): void {
    const event = { type: "tool" as const, messageId: generation.messageId, toolCall: toToolCall(call) };
    generation.emit(event);
    this.mirror?.toolCall(this.ref(generation.messageId), generation.toolCalls.map(toToolCall), event);
  }

  private async run(
    generation: LiveGeneration,
    input: GenerationRequest,
    message: Message,
    first: AskedStream | null,
    hold: AiHold,
    base: SpentSoFar,
  ): Promise<void> {
    const { db } = this.options;
    const { platform, modelId } = input.resolved;
    let saved = generation.content.length;
    let writes: Promise<unknown> = Promise.resolve();
    const write = (set: Partial<MessageRow>) => {
      writes = writes.then(() =>
        db
          .update(messages)
          .set({ ...set, updatedAt: new Date() })
          // Never into a row already ended (a Stop or a sweep elsewhere closed it).
          .where(and(eq(messages.id, generation.messageId), eq(messages.status, "streaming")))
          .catch((e) => this.options.log(`saving reply ${generation.messageId} failed`, e)),
      );
    };
    const save = () => {
      if (generation.content.length === saved) return;
      saved = generation.content.length;
      write({ content: generation.content });
    };
    // A call's state is stored as it changes, so a resumed stream (and a restart) sees it.
    const saveCalls = () => {
      saved = generation.content.length;
      write({ content: generation.content, toolCalls: generation.toolCalls.map((call) => ({ ...call })) });
    };
    const saver = setInterval(save, SAVE_EVERY_MS);
    let failure: unknown;
    const spent: StepUsage = { reported: false, inputTokens: 0, outputTokens: 0 };
    let paused = false;
    let step = lastStep(generation.toolCalls);
    const tools = input.tools;
    let asked = first;
    try {
      for (;;) {
        if (asked) {
          const calls = await this.readStep(generation, asked, spent);
          if (calls.length === 0 || !tools || generation.stopReason) break;
          step += 1;
          this.recordCalls(generation, tools, step, calls);
          saveCalls();
        }
        if (!tools) break;
        await this.runCalls(generation, tools, input.sources ?? [], saveCalls);
        if (generation.stopReason) break;
        if (generation.toolCalls.some((call) => call.status === "awaiting-approval")) {
          paused = true;
          break;
        }
        // The step bound (Platform Settings): no more model steps once it is reached.
        if (step >= tools.maxSteps) break;
        asked = this.ask(input, generation.controller, [...input.history, replyTurn(generation.content, generation.toolCalls)]);
      }
    } catch (error) {
      if (!generation.stopReason) failure = error;
    } finally {
      clearInterval(saver);
      if (asked) clearTimeout(asked.firstChunkTimer);
    }
    // Cut by us (a Stop, a shutdown, the first-chunk wait over) once a request had gone to the provider: a resumed
    // reply stopped while its tools ran, before asking the model again, sent nothing (decision 053).
    const cut = asked !== null && generation.controller.signal.aborted;
    for (const call of generation.toolCalls) {
      if (call.status === "running") Object.assign(call, { status: "error", result: STOPPED_RESULT });
    }
    await writes;
    // Its hold is settled with what it spent (the provider's figure for every step, else what was sent and received; at
    // least the prompt's estimate when we cut it) before anyone is told it ended, so the next claim and the usage meter
    // see it (decisions 016, 028, 053). A settle the database refuses is tried again by the sweep; the hold counts until then.
    const received = generation.content.slice(base.content);
    await this.allowance.settle(hold.id, spentTokens(hold.promptEstimate, { usage: spent.reported ? spent : undefined, received, cut }));

    const providerError = failure ? toProviderError(failure, { platform, model: modelId, log: input.log }) : undefined;
    const stopped = generation.stopReason === "user" ? STOPPED_BY_USER : generation.stopReason === "shutdown" ? STOPPED_BY_RESTART : null;
    const produced = generation.content || generation.toolCalls.length > 0;
    const status = providerError || stopped ? (produced ? "incomplete" : "failed") : paused ? "awaiting-approval" : "complete";
    const errorInfo = providerError ? { message: providerError.message, status: providerError.statusCode } : undefined;
    const fields: FinalFields = {
      content: generation.content,
      status,
      error: providerError?.message ?? stopped,
      inputTokens: spent.reported || base.inputTokens ? base.inputTokens + spent.inputTokens : null,
      outputTokens: spent.reported || base.outputTokens ? base.outputTokens + spent.outputTokens : null,
      citations: citationsOf(generation.content, input.sources ?? [], generation.toolCalls),
      toolCalls: generation.toolCalls,
    };
    let row: MessageRow | undefined;
    let endedElsewhere = false;
    try {
      row = await this.closeRow(generation.messageId, fields);
      if (!row) {
        // Ended meanwhile by a Stop or a sweep on another instance (its row says how), or its chat was deleted.
        [row] = await db.select().from(messages).where(eq(messages.id, generation.messageId)).limit(1);
        endedElsewhere = true;
      }
    } catch (error) {
      // The database refused or is away: what arrived is kept here and saved as soon as it answers again.
      this.options.log(`saving the end of reply ${generation.messageId} failed`, error);
      const kept: FinalFields = { ...fields, status: fields.content ? "incomplete" : "failed", error: SAVE_FAILED };
      this.unsaved.set(generation.messageId, kept);
      this.scheduleRetry();
      const notSaved = { message: SAVE_FAILED, status: 503 };
      const final: Message = {
        ...message,
        ...kept,
        status: kept.status as Message["status"],
        citations: (kept.citations ?? []).map(({ chunkId: _, ...citation }) => citation),
        toolCalls: generation.toolCalls.map(toToolCall),
      };
      // The database is away: what the reply changed besides its text cannot be read either.
      const done: LocalEvent = { type: "done", assistantMessage: final, after: null };
      generation.finished = [{ type: "error", ...notSaved }, done];
      for (const event of generation.finished) generation.emit(event);
      this.mirror?.finish(this.ref(generation.messageId), done, notSaved, true);
      return;
    }
    if (!row) {
      // The chat was deleted while the reply was being written: end whoever still follows it.
      const gone: LocalEvent = { type: "error", message: "This chat was deleted.", status: 404 };
      generation.finished = [gone];
      generation.emit(gone);
      return;
    }
    // With what the reply changed besides its text (the chat, its place in the branch, the usage): nobody reads them again.
    const done = await doneEvent(db, row);
    const events: LocalEvent[] = [];
    if (errorInfo && !endedElsewhere) events.push({ type: "error", ...errorInfo });
    events.push(done);
    generation.finished = events;
    for (const event of events) generation.emit(event);
    this.mirror?.finish(this.ref(generation.messageId), done, endedElsewhere ? undefined : errorInfo);
  }

  /**
   * Replies "streaming" that nobody writes: left by an instance that is gone (a restart, a crash, kill -9),
   * or ours but no longer running here. Keep what arrived (Redis may hold more than the last save) and
   * mark them incomplete. One row that cannot be closed is logged and skipped: it never stops a start or the sweep.
   */
  async recoverOrphans(): Promise<void> {
    await this.saveUnsaved();
    // Ours and just written: the reply is starting (begin() attaches it as soon as its rows commit).
    const rows = await this.options.db
      .select({ id: messages.id, content: messages.content, ...ownedWork(messages.generationOwner, messages.updatedAt) })
      .from(messages)
      .where(eq(messages.status, "streaming"));
    await sweepEach(
      rows,
      (row) => this.recoverOne(row),
      (row, error) => this.options.log(`closing orphaned reply ${row.id} failed`, error),
    );
    // Then the holds nobody will settle (decision 028): of the replies just closed, and of any call whose owner is gone.
    await this.allowance.sweep(this.isInstanceAlive).catch((error) => this.options.log("sweeping AI holds failed", error));
  }

  /** Another instance's heartbeat (Redis); without Redis there is one instance (lib/liveness.ts). */
  private get isInstanceAlive(): IsInstanceAlive | undefined {
    const mirror = this.mirror;
    return mirror ? (owner) => mirror.isInstanceAlive(owner) : undefined;
  }

  private async recoverOne(row: Pick<MessageRow, "id" | "content"> & { owner: string | null; fresh: boolean }): Promise<void> {
    const { owner } = row;
    const runsHere = this.live.has(row.id) || this.unsaved.has(row.id);
    if (await stillOwned({ ...row, runsHere }, this.instanceId, this.isInstanceAlive)) return;
    const content = await this.longestText({ id: row.id, generationOwner: owner, content: row.content });
    const closed = await this.closeRow(row.id, {
      content,
      status: content ? "incomplete" : "failed",
      error: owner === this.instanceId ? INTERRUPTED : STOPPED_BY_RESTART,
      inputTokens: null,
      outputTokens: null,
    });
    // Followers on other instances are waiting on the dead instance's channel: tell them it ended.
    if (closed && owner) this.finishMirror({ owner, messageId: row.id }, closed);
  }

  /** Shutdown: stop every reply here, keep what arrived, and let their streams end. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const id of this.live.keys()) this.abortLocal(id, "shutdown");
    // Each reply saves what arrived and sends its last event; a loaded machine may need a few seconds for that.
    await Promise.race([Promise.allSettled([...this.running]), sleep(10_000)]);
    clearTimeout(this.retry);
    // One last try for ends the database refused; what still fails is closed by the next instance's sweep.
    await this.saveUnsaved();
    clearTimeout(this.retry);
    await this.allowance.retryUnsettled();
    await this.mirror?.close();
  }
}

/** A wait that never keeps the process alive on its own. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
