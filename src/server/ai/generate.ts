import type { LanguageModelV4 as LanguageModel, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { z } from "zod";
import { cutAfterSent, holdFor, type Spend, spentTokens } from "./allowance.js";
import { cleanProviderText, cleanProviderValue, StreamTextCleaner } from "./clean-text.js";
import { sendAfter } from "./held-fetch.js";

/**
 * The only calls to the AI SDK for text (embeddings are `embed.ts`'s `embedMany`): a whole answer, a structured answer
 * (its `generateText`), and a streamed answer (the model's own `doStream`).
 * Modules hold a `LanguageModel` (from language-model.ts) and these types, never the SDK itself. A whole answer is
 * spent from a user's allowance here (`spend`: the claim and its hold before the call, the settle after it, decision
 * 028), so no caller asks a model without the allowance rule; a streamed answer's claim is its caller's, made before
 * its request leaves (a reply's start claims inside `start_reply`, and its request waits for it: `sendAfter`, 057).
 * What they return has lost NUL and lone surrogates (clean-text.ts), so it can be stored and streamed.
 * The `ai` package loads with the first call (issue 15: an idle server holds none of it).
 */
export type { LanguageModel, ModelMessage };

export interface CompletionRequest {
  model: LanguageModel;
  /** The system prompt. */
  system?: string;
  prompt?: string;
  messages?: ModelMessage[];
  temperature?: number;
  maxOutputTokens: number;
  maxRetries: number;
  /** A whole-call limit (ms). */
  timeout?: number;
  abortSignal?: AbortSignal;
  /**
   * The user's allowance the call spends from (decision 028): claimed (429 when refused) with the request's hold
   * before the call, settled with what it spent before the answer returns. null: nobody's call (an admin's test of
   * a platform's connection), counted nowhere.
   */
  spend: Spend | null;
}

type Usage = { inputTokens?: number | undefined; outputTokens?: number | undefined };

/** The texts of a request's prompt, for its hold. */
function promptTexts(request: CompletionRequest): (string | undefined)[] {
  const messages = (request.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  return [request.system, request.prompt, ...messages];
}

/**
 * One call spent from `request.spend`: the claim first (a 429 asks no model), then the call, which reports its usage
 * and the text it got; the settle at its end, whatever the end (an answer, an error, an abort). The call gets one
 * signal, the caller's and the whole-call `timeout` together (as the SDK would merge them), so its end knows whether
 * we cut it after it left (a run's Stop, the timeout): then it spent at least its prompt's estimate (decision 053).
 */
async function metered<T>(
  request: CompletionRequest,
  call: (signal: AbortSignal | undefined, report: (usage: Usage | undefined, text: string) => void) => Promise<T>,
): Promise<T> {
  const { spend, abortSignal, timeout } = request;
  const signals = [abortSignal, timeout === undefined ? undefined : AbortSignal.timeout(timeout)].filter((s) => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  if (!spend) return call(signal, () => {});
  const hold = await spend.allowance.claim(
    spend.userId,
    holdFor({ maxOutputTokens: request.maxOutputTokens, prompt: promptTexts(request) }),
  );
  const abortedBeforeSent = signal?.aborted === true;
  let usage: Usage | undefined;
  let received = "";
  try {
    return await call(signal, (reported, text) => {
      usage = reported;
      received = text;
    });
  } finally {
    const cut = cutAfterSent(signal, abortedBeforeSent);
    await spend.allowance.settle(hold.id, spentTokens(hold.promptEstimate, { usage, received, cut }));
  }
}

/**
 * The `ai` package, imported once: a dynamic import of a module already loaded still goes through the module
 * loader (its resolve hooks too), which a reply's first token should not wait for (issue 15).
 */
let ai: Promise<typeof import("ai")> | undefined;
const loadAi = () => {
  ai ??= import("ai");
  return ai;
};

/** The SDK's options; `abortSignal` is the caller's signal and the whole-call timeout together (`metered`). */
function sdkOptions(request: CompletionRequest, abortSignal: AbortSignal | undefined) {
  const { model, system, prompt, messages, temperature, maxOutputTokens, maxRetries } = request;
  const input = messages ? { messages } : { prompt: prompt ?? "" };
  // No telemetry is registered: saying so spares each call the SDK's span and event bookkeeping (issue 15).
  const telemetry = { isEnabled: false };
  return { model, instructions: system, ...input, temperature, maxOutputTokens, maxRetries, abortSignal, telemetry };
}

/** One whole answer as text. Provider failures are thrown as the SDK raised them (see provider-error.ts). */
export async function completeText(request: CompletionRequest): Promise<string> {
  const { generateText } = await loadAi();
  return metered(request, async (signal, report) => {
    const result = await generateText(sdkOptions(request, signal));
    const text = cleanProviderText(result.text);
    report(result.totalUsage, text);
    return text;
  });
}

/**
 * An answer that must match `schema`; null when the model answered something else even after repair (the caller may
 * ask again). The shape is named in the system prompt as well as sent as the provider's structured output: a platform
 * that takes no schema (an OpenAI-compatible server without structured outputs, Deepseek's JSON mode) still has the
 * model told which fields to write (decision 059). An answer that is the object inside a Markdown fence or after a
 * sentence is repaired (`repairedObject`) before it counts as no answer.
 */
export async function completeObject<T>(request: CompletionRequest & { schema: z.ZodType<T>; name: string }): Promise<T | null> {
  const { asSchema, generateText, NoObjectGeneratedError, Output } = await loadAi();
  const shape = await asSchema(request.schema).jsonSchema;
  const named = { ...request, system: withShape(request.system, shape) };
  return metered(named, async (signal, report) => {
    try {
      const result = await generateText({
        ...sdkOptions(named, signal),
        output: Output.object({ schema: request.schema, name: request.name }),
      });
      report(result.totalUsage, result.text);
      return cleanProviderValue(result.output) as T;
    } catch (error) {
      if (NoObjectGeneratedError.isInstance(error)) {
        // The answer did not fit the schema, but its tokens were spent all the same.
        report(error.usage, error.text ?? "");
        const repaired = repairedObject(error.text ?? "", request.schema);
        return repaired === null ? null : (cleanProviderValue(repaired) as T);
      }
      throw error;
    }
  });
}

/** The system prompt with the answer's shape named: one JSON object, its JSON Schema (without its `$schema` line). */
export function withShape(system: string | undefined, shape: unknown): string {
  const { $schema: _, ...schema } = (shape ?? {}) as Record<string, unknown>;
  const rule = `Answer with one JSON object and nothing else. It must match this JSON Schema:\n${JSON.stringify(schema)}`;
  return system ? `${system}\n\n${rule}` : rule;
}

/**
 * The object a model wrapped in a Markdown fence or put after or before a sentence (what models without a JSON mode
 * often write): the text from its first `{` to its last `}`, if that parses and fits `schema`; else null.
 */
export function repairedObject<T>(text: string, schema: z.ZodType<T>): T | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const checked = schema.safeParse(value);
  return checked.success ? checked.data : null;
}

/** An image sent with a user's turn (issue 30): its bytes and type, sent as the provider's own image part. */
export interface ImagePart {
  data: Uint8Array;
  mediaType: string;
}

/** A tool the model may call (issue 34): its name as the model sees it, and its arguments' JSON Schema. */
export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The provider's strict mode for the arguments, where it has one (OpenAI's `strict`). */
  strict?: boolean;
}

/**
 * Which tools the model may, or must, call: any or none (`auto`), at least one (`required`), the one named, or none
 * while they are declared (`none`: a conversation that holds tool calls, which Anthropic refuses without its tools).
 */
export type ToolChoice = "auto" | "required" | "none" | { toolName: string };

/** A tool call of an earlier step and what it gave, sent back to the model. */
export interface ToolExchange {
  id: string;
  name: string;
  input: unknown;
  output: string;
  isError: boolean;
}

/**
 * One step of a reply that called tools: the text written before the calls, the calls and their results. A reply's
 * turn is its steps, then its last text (`content`).
 */
export interface ToolStep {
  text: string;
  calls: ToolExchange[];
}

/**
 * A turn of a streamed conversation: a chat's history is text (pasted files are fenced into the user's text), and a
 * user's turn may carry images; a reply's turn may carry the tool steps it took before its `content` (issue 34).
 */
export interface TextMessage {
  role: "user" | "assistant";
  content: string;
  images?: ImagePart[];
  steps?: ToolStep[];
}

export interface StreamRequest {
  model: LanguageModel;
  /** The system prompt. */
  system?: string;
  messages: TextMessage[];
  temperature?: number;
  maxOutputTokens: number;
  abortSignal: AbortSignal;
  /** The longest wait between two parts once the text has begun (ms); the wait for the first is the caller's. */
  chunkMs: number;
  /** The tools the model may call (none: it is offered none). */
  tools?: readonly ToolSpec[];
  /** With `tools`: `auto` unless said. */
  toolChoice?: ToolChoice;
  /** With `tools`: false asks the model for one call at most per answer (where the provider has the switch). */
  parallelToolCalls?: boolean;
  /**
   * Also yield a tool call as it is written (`tool-input-start`, then `tool-input-delta` pieces of its arguments),
   * before its whole `tool-call`: the OpenAI-compatible endpoint streams them on (decision 054).
   */
  toolInputDeltas?: boolean;
  /** Sequences that end the answer where they would appear (the OpenAI-compatible endpoint's `stop`). */
  stopSequences?: string[];
  /**
   * The request is built at once but leaves only once this is fulfilled, and never when it is rejected (then the call
   * ends with an error part): a chat reply's start, which claims its hold (`held-fetch.ts`, decision 057). Absent: at once.
   */
  sendAfter?: Promise<unknown>;
}

/** What a streamed answer yields: text pieces, then its usage, or the error that ended it. */
export type CompletionPart =
  | { type: "text"; text: string }
  /** The model asks for a tool (its arguments whole, as JSON text); the caller runs it and asks the next step. */
  | { type: "tool-call"; id: string; name: string; input: string }
  /** With `toolInputDeltas`: a tool call begins (its id and tool), then pieces of its arguments' JSON text. */
  | { type: "tool-input-start"; id: string; name: string }
  | { type: "tool-input-delta"; id: string; delta: string }
  | {
      type: "finish";
      usage: { inputTokens?: number | undefined; outputTokens?: number | undefined };
      /** Why the model stopped, as the AI SDK unifies it across providers. */
      reason: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "interrupted" | "other";
    }
  | { type: "error"; error: unknown };

/** The conversation in the form a model's `doStream` takes. */
function toPrompt(system: string | undefined, messages: TextMessage[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = system ? [{ role: "system", content: system }] : [];
  for (const { role, content, images, steps } of messages) {
    if (role === "assistant" && steps?.length) {
      for (const step of steps) {
        const calls = step.calls.map((call) => ({
          type: "tool-call" as const,
          toolCallId: call.id,
          toolName: call.name,
          input: call.input,
        }));
        prompt.push({ role, content: [...(step.text ? [{ type: "text" as const, text: step.text }] : []), ...calls] });
        prompt.push({
          role: "tool",
          content: step.calls.map((call) => ({
            type: "tool-result" as const,
            toolCallId: call.id,
            toolName: call.name,
            output: call.isError ? { type: "error-text" as const, value: call.output } : { type: "text" as const, value: call.output },
          })),
        });
      }
      if (content) prompt.push({ role, content: [{ type: "text", text: content }] });
    } else if (role === "user" && images?.length) {
      const files = images.map((image) => ({
        type: "file" as const,
        data: { type: "data" as const, data: image.data },
        mediaType: image.mediaType,
      }));
      prompt.push({ role, content: [...files, { type: "text", text: content }] });
    } else prompt.push({ role, content: [{ type: "text", text: content }] });
  }
  return prompt;
}

/** The tools part of a `doStream` call: the tools, the choice, and the parallel-calls switch of the providers that have one. */
function toolOptions(request: StreamRequest) {
  if (!request.tools?.length) return {};
  const choice = request.toolChoice ?? "auto";
  const parallel = request.parallelToolCalls;
  return {
    tools: request.tools.map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    })),
    toolChoice: typeof choice === "string" ? { type: choice } : { type: "tool" as const, toolName: choice.toolName },
    ...(parallel === undefined
      ? {}
      : {
          providerOptions: {
            openai: { parallelToolCalls: parallel },
            mistral: { parallelToolCalls: parallel },
            anthropic: { disableParallelToolUse: !parallel },
          },
        }),
  };
}

/**
 * A streamed answer, straight from the model's own `doStream` (the provider package: its request, its wire format,
 * its errors as `APICallError`) without `streamText`'s layers around it: per call, those built several web streams
 * and a combined abort signal and cost more than a millisecond before the request left and after each chunk came
 * (issue 15, bench/stream-overhead). What a chat reply needs from them is here: text cleaned as it comes, usage, and
 * a stall between chunks ended as a timeout. No retry: a person is watching, and Regenerate is one click.
 * Errors arrive as parts, never as throws.
 */
export async function* streamCompletion(request: StreamRequest): AsyncGenerator<CompletionPart> {
  const { model, abortSignal: caller } = request;
  // Its own controller, so a stall can end the call; the caller's abort (Stop, shutdown, first-chunk timeout) passes through.
  const controller = new AbortController();
  if (request.sendAfter) sendAfter(controller.signal, request.sendAfter);
  const passOn = () => controller.abort(caller.reason);
  if (caller.aborted) passOn();
  else caller.addEventListener("abort", passOn, { once: true });
  let stalled = false;
  let stallTimer: NodeJS.Timeout | undefined;
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
  try {
    const { stream } = await model.doStream({
      prompt: toPrompt(request.system, request.messages),
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens,
      abortSignal: controller.signal,
      ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
      ...toolOptions(request),
    });
    reader = stream.getReader();
    const cleaner = new StreamTextCleaner();
    // The stall limit runs from the answer's first output, text or a tool call being written.
    const outputBegun = () => {
      stallTimer ??= setTimeout(() => {
        stalled = true;
        controller.abort();
      }, request.chunkMs);
    };
    const providerRuns = new Set<string>();
    for (;;) {
      const next = await reader.read();
      if (next.done) return;
      stallTimer?.refresh();
      const part = next.value;
      if (part.type === "text-delta") {
        outputBegun();
        const text = cleaner.push(part.delta);
        if (text) yield { type: "text", text };
      } else if (part.type === "tool-input-start") {
        outputBegun();
        if (part.providerExecuted) providerRuns.add(part.id);
        else if (request.toolInputDeltas) yield { type: "tool-input-start", id: part.id, name: part.toolName };
      } else if (part.type === "tool-input-delta") {
        outputBegun();
        if (request.toolInputDeltas && !providerRuns.has(part.id)) yield { type: "tool-input-delta", id: part.id, delta: part.delta };
      } else if (part.type === "tool-call") {
        outputBegun();
        if (!part.providerExecuted) yield { type: "tool-call", id: part.toolCallId, name: part.toolName, input: part.input };
      } else if (part.type === "finish") {
        yield {
          type: "finish",
          usage: { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total },
          reason: part.finishReason.unified,
        };
      } else if (part.type === "error") {
        yield { type: "error", error: part.error };
        return;
      }
    }
  } catch (error) {
    yield { type: "error", error: stalled ? Object.assign(new Error("timeout of chunk exceeded"), { name: "TimeoutError" }) : error };
  } finally {
    clearTimeout(stallTimer);
    caller.removeEventListener("abort", passOn);
    // Left early (the caller stopped reading, or an error part), the provider's response is closed too (a no-op once it ended).
    await reader?.cancel().catch(() => {});
  }
}
