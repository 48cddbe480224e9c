import { randomBytes } from "node:crypto";
import { IMAGE_MIME_TYPES } from "../../../shared/constants.js";
import type {
  ChatCompletion,
  ChatCompletionBody,
  ChatCompletionMessage,
  FINISH_REASONS,
  ToolCall,
} from "../../../shared/contracts/openai.js";
import { depthOf, MAX_TOOL_PARAMETERS_DEPTH } from "../../../shared/contracts/openai.js";
import { type AiAllowance, type AiHold, cutAfterSent, holdFor, spentTokens } from "../../ai/allowance.js";
import {
  type CompletionPart,
  type ImagePart,
  type StreamRequest,
  streamCompletion,
  type TextMessage,
  type ToolExchange,
  type ToolSpec,
} from "../../ai/generate.js";
import { type ProviderFailureLog, toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { sniffImageType } from "../../lib/image-type.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import type { ResolvedModel } from "../ai-platforms/resolve-platform.js";
import { assertReadsImagesSent } from "../chat/reply-material.js";
import { v1ChatModel } from "./models-service.js";

/** The limits a request runs under: the chat's (AI_MAX_CONCURRENT_PER_USER, AI_FIRST_CHUNK_TIMEOUT_MS, AI_CHUNK_TIMEOUT_MS). */
export interface CompletionLimits {
  maxRunning: number;
  firstChunkMs: number;
  chunkMs: number;
}

/** A request admitted: its model resolved, its allowance held; `answer` asks the model (once). */
export interface AdmittedCompletion {
  id: string;
  created: number;
  /** The model as the request named it (`platform-slug/model`), echoed in every answer. */
  model: string;
  answer(abortSignal: AbortSignal): AsyncGenerator<AnswerPiece, CompletionEnd>;
}

export type FinishReason = (typeof FINISH_REASONS)[number];

/** What an answer yields as it comes: its text, and the tool calls it asks for (decision 054) as they are written. */
export type AnswerPiece =
  | { type: "text"; text: string }
  /** A call begins: its place among the answer's calls, its id, the tool. */
  | { type: "call"; index: number; id: string; name: string }
  /** A piece of call `index`'s arguments (JSON text). */
  | { type: "arguments"; index: number; text: string };

export interface CompletionEnd {
  finishReason: FinishReason;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

const FINISH: Partial<Record<Extract<CompletionPart, { type: "finish" }>["reason"], FinishReason>> = {
  length: "length",
  "content-filter": "content_filter",
  "tool-calls": "tool_calls",
};

/** The text of a message's content (its text parts, one per line), and the images of a user's. */
function contentOf(message: ChatCompletionMessage): { text: string; images: ImagePart[] } {
  if (message.content == null) return { text: "", images: [] };
  if (typeof message.content === "string") return { text: message.content, images: [] };
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const part of message.content) {
    if (part.type === "text") texts.push(part.text);
    else images.push(imageOf(part.image_url.url));
  }
  return { text: texts.join("\n"), images };
}

/** A data: URL's image (the contract already checked its form): its bytes, typed by what they are, not what they say. */
function imageOf(url: string): ImagePart {
  const data = new Uint8Array(Buffer.from(url.slice(url.indexOf(",") + 1), "base64"));
  const mediaType = sniffImageType(data);
  if (!mediaType) throw new AppError("BAD_REQUEST", `Images must be ${IMAGE_MIME_TYPES.join(", ")}.`);
  return { data, mediaType };
}

/**
 * A call's arguments as the model gets them back: the JSON they are, or the text as written when it is not JSON or
 * nests deeper than any tool's parameters may (`MAX_TOOL_PARAMETERS_DEPTH`): JSON.parse takes any depth, but writing
 * such a value again (the hold's size, the provider's request) would throw.
 */
function argumentsOf(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return depthOf(value, MAX_TOOL_PARAMETERS_DEPTH) > MAX_TOOL_PARAMETERS_DEPTH ? text : value;
  } catch {
    return text;
  }
}

/**
 * OpenAI's messages as the chat's prompt: the system and developer messages are the system prompt, in order; an
 * assistant message's `tool_calls` and the tool messages after it are one tool step (calls and results), as a chat
 * reply's are (the contract checked that each result answers a call).
 */
function promptOf(messages: ChatCompletionMessage[]): { system: string | undefined; turns: TextMessage[] } {
  const system: string[] = [];
  const turns: TextMessage[] = [];
  const calls = new Map<string, ToolExchange>();
  for (const message of messages) {
    const { text, images } = contentOf(message);
    if (message.role === "system" || message.role === "developer") system.push(text);
    else if (message.role === "tool") {
      const call = calls.get(message.tool_call_id ?? "");
      if (call) call.output = text;
    } else if (message.role === "assistant" && message.tool_calls?.length) {
      const exchanges = message.tool_calls.map((call) => ({
        id: call.id,
        name: call.function.name,
        input: argumentsOf(call.function.arguments),
        output: "",
        isError: false,
      }));
      for (const exchange of exchanges) calls.set(exchange.id, exchange);
      turns.push({ role: "assistant", content: "", steps: [{ text, calls: exchanges }] });
    } else turns.push({ role: message.role, content: text, ...(images.length ? { images } : {}) });
  }
  return { system: system.length ? system.join("\n\n") : undefined, turns };
}

/**
 * The caller's tools as the model is offered them, and the choice. `tool_choice: "none"` offers none, but for a
 * conversation that holds tool calls: there the tools are declared with the choice `none` (Anthropic refuses tool
 * calls in a conversation whose request declares no tools).
 */
function toolsOf(input: ChatCompletionBody): Pick<StreamRequest, "tools" | "toolChoice" | "parallelToolCalls"> {
  const choice = input.tool_choice ?? "auto";
  if (!input.tools?.length) return {};
  if (choice === "none" && !input.messages.some((message) => message.tool_calls?.length)) return {};
  const tools: ToolSpec[] = input.tools.map(({ function: tool }) => ({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: { type: "object", properties: {}, ...(tool.parameters ?? {}) },
    ...(tool.strict == null ? {} : { strict: tool.strict }),
  }));
  return {
    tools,
    toolChoice: typeof choice === "string" ? choice : { toolName: choice.function.name },
    ...(input.parallel_tool_calls == null ? {} : { parallelToolCalls: input.parallel_tool_calls }),
  };
}

/** The texts a request sends, for its hold: the system prompt, the turns, their tool steps, and the tools offered. */
function promptTexts(request: Omit<StreamRequest, "abortSignal">): (string | undefined)[] {
  // No system prompt is no message: `holdFor` frames only the texts given.
  const texts: (string | undefined)[] = [request.system];
  for (const turn of request.messages) {
    texts.push(turn.content);
    for (const step of turn.steps ?? []) {
      texts.push(step.text);
      for (const call of step.calls) texts.push(call.name, JSON.stringify(call.input), call.output);
    }
  }
  if (request.tools?.length) texts.push(JSON.stringify(request.tools));
  return texts;
}

/**
 * POST /v1/chat/completions, up to the provider's call: the model this user may use (404), the prompt, the length
 * bounded by the platform's most (as a chat reply's), and the claim with its hold (decision 028), counted as a running
 * call (429: allowance, concurrency). What the caller then reads from `answer` is settled whatever its end.
 */
export async function admitCompletion(options: {
  db: Db;
  who: Who;
  deps: PlatformDeps;
  input: ChatCompletionBody;
  limits: CompletionLimits;
  log: ProviderFailureLog;
}): Promise<AdmittedCompletion> {
  const { db, who, deps, input, limits } = options;
  const resolved = await v1ChatModel({ db, deps, who, id: input.model });
  const { system, turns } = promptOf(input.messages);
  await assertReadsImagesSent(
    { db, deps, who },
    resolved,
    turns.some((turn) => turn.images?.length),
  );
  const { platform } = resolved;
  const asked = input.max_completion_tokens ?? input.max_tokens ?? platform.maxTokens;
  const request: Omit<StreamRequest, "abortSignal"> = {
    model: resolved.model,
    system,
    messages: turns,
    temperature: input.temperature ?? platform.temperature,
    maxOutputTokens: Math.min(asked, platform.maxTokens),
    chunkMs: limits.chunkMs,
    ...(input.stop ? { stopSequences: typeof input.stop === "string" ? [input.stop] : input.stop } : {}),
    ...toolsOf(input),
    toolInputDeltas: true,
  };
  const size = holdFor({ maxOutputTokens: request.maxOutputTokens, prompt: promptTexts(request) });
  // A completion is one of the day's messages, as a chat message is: a plan's messages-per-day limit holds on /v1 too.
  const hold = await deps.allowance.claimCall(who.id, size, limits.maxRunning, { newMessage: true });
  let answered = false;
  return {
    id: `chatcmpl-${randomBytes(18).toString("base64url")}`,
    created: Math.floor(Date.now() / 1000),
    model: input.model,
    answer(abortSignal) {
      if (answered) throw new Error("A completion is answered once");
      answered = true;
      return answer({ request, abortSignal, hold, allowance: deps.allowance, limits, resolved, log: options.log });
    },
  };
}

/**
 * The answer as it comes (text, and the tool calls the model asks for as they are written), through the chat's own
 * path (`streamCompletion`, the model's `doStream`), with the chat's wait for the first output (text or a call); its
 * end (why it stopped, the usage); a provider failure thrown as the chat words it (`toProviderError`). The hold is
 * settled at the end, whatever it is: an answer, a failure, the caller's abort (a client gone), or the caller leaving
 * the loop. The caller runs the tools: nothing is executed here.
 */
async function* answer(call: {
  request: Omit<StreamRequest, "abortSignal">;
  abortSignal: AbortSignal;
  hold: AiHold;
  allowance: AiAllowance;
  limits: CompletionLimits;
  resolved: ResolvedModel;
  log: ProviderFailureLog;
}): AsyncGenerator<AnswerPiece, CompletionEnd> {
  const controller = new AbortController();
  const passOn = () => controller.abort(call.abortSignal.reason);
  // The client already gone: the request never leaves, and nothing is spent.
  const abortedBeforeSent = call.abortSignal.aborted;
  if (abortedBeforeSent) passOn();
  else call.abortSignal.addEventListener("abort", passOn, { once: true });
  let timedOut = false;
  const firstChunkTimer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.limits.firstChunkMs);
  // What came back, for the estimate when the provider reports no usage: the text, the tools' names and arguments.
  let received = "";
  let usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined;
  let finishReason: FinishReason = "stop";
  /** The calls begun, by the provider's id: their index, and the arguments passed on so far. */
  const calls = new Map<string, { index: number; sent: string }>();
  function* begin(id: string, name: string): Generator<AnswerPiece, { index: number; sent: string }> {
    const known = calls.get(id);
    if (known) return known;
    const call = { index: calls.size, sent: "" };
    calls.set(id, call);
    received += name;
    yield { type: "call", index: call.index, id, name };
    return call;
  }
  function* more(call: { index: number; sent: string }, text: string): Generator<AnswerPiece> {
    if (!text) return;
    call.sent += text;
    received += text;
    yield { type: "arguments", index: call.index, text };
  }
  try {
    for await (const part of streamCompletion({ ...call.request, abortSignal: controller.signal })) {
      if (part.type === "text") {
        clearTimeout(firstChunkTimer);
        received += part.text;
        yield { type: "text", text: part.text };
      } else if (part.type === "tool-input-start") {
        clearTimeout(firstChunkTimer);
        yield* begin(part.id, part.name);
      } else if (part.type === "tool-input-delta") {
        const begun = calls.get(part.id);
        if (begun) yield* more(begun, part.delta);
      } else if (part.type === "tool-call") {
        clearTimeout(firstChunkTimer);
        const begun = yield* begin(part.id, part.name);
        // The whole arguments: what the pieces had not said yet (a provider may complete them, `{}` for none).
        if (part.input.startsWith(begun.sent)) yield* more(begun, part.input.slice(begun.sent.length));
      } else if (part.type === "finish") {
        usage = part.usage;
        finishReason = FINISH[part.reason] ?? "stop";
      } else if (part.type === "error") {
        throw timedOut ? Object.assign(new Error("first chunk timeout"), { name: "TimeoutError" }) : part.error;
      }
    }
    // An answer that asks for tools ends with "tool_calls", as OpenAI's does, whatever word the provider used (but a cut).
    if (calls.size > 0 && finishReason !== "length") finishReason = "tool_calls";
    const prompt = usage?.inputTokens ?? 0;
    const completion = usage?.outputTokens ?? 0;
    return { finishReason, usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
  } catch (error) {
    throw toProviderError(error, { platform: call.resolved.platform, model: call.resolved.modelId, log: call.log, callerRequest: true });
  } finally {
    clearTimeout(firstChunkTimer);
    call.abortSignal.removeEventListener("abort", passOn);
    // Ended by us (the client gone, the first-chunk wait over) after the request left: at least the prompt's estimate
    // (`spentTokens`, decision 053); a provider's refusal or error before the answer spends nothing.
    const cut = cutAfterSent(controller.signal, abortedBeforeSent);
    await call.allowance.settle(call.hold.id, spentTokens(call.hold.promptEstimate, { usage, received, cut }));
  }
}

/** The whole answer (`stream` false): the text and the tool calls read to their end; `content` null when only calls came. */
export async function wholeCompletion(admitted: AdmittedCompletion, abortSignal: AbortSignal): Promise<ChatCompletion> {
  const parts = admitted.answer(abortSignal);
  let content = "";
  const toolCalls: ToolCall[] = [];
  for (let next = await parts.next(); ; next = await parts.next()) {
    if (next.done) {
      const message = toolCalls.length
        ? { role: "assistant" as const, content: content || null, refusal: null, tool_calls: toolCalls }
        : { role: "assistant" as const, content, refusal: null };
      return {
        id: admitted.id,
        object: "chat.completion",
        created: admitted.created,
        model: admitted.model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: next.value.finishReason }],
        usage: next.value.usage,
      };
    }
    const piece = next.value;
    if (piece.type === "text") content += piece.text;
    else if (piece.type === "call")
      toolCalls[piece.index] = { id: piece.id, type: "function", function: { name: piece.name, arguments: "" } };
    else {
      const call = toolCalls[piece.index];
      if (call) call.function.arguments += piece.text;
    }
  }
}
