import { randomBytes } from "node:crypto";
import { IMAGE_MIME_TYPES } from "../../../shared/constants.js";
import type { ChatCompletion, ChatCompletionBody, ChatCompletionMessage, FINISH_REASONS } from "../../../shared/contracts/openai.js";
import { type AiAllowance, type AiHold, cutAfterSent, holdFor, spentTokens } from "../../ai/allowance.js";
import { type CompletionPart, type ImagePart, type StreamRequest, streamCompletion, type TextMessage } from "../../ai/generate.js";
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
  answer(abortSignal: AbortSignal): AsyncGenerator<string, CompletionEnd>;
}

export type FinishReason = (typeof FINISH_REASONS)[number];

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

/** OpenAI's messages as the chat's prompt: the system and developer messages are the system prompt, in order. */
function promptOf(messages: ChatCompletionMessage[]): { system: string | undefined; turns: TextMessage[] } {
  const system: string[] = [];
  const turns: TextMessage[] = [];
  for (const message of messages) {
    const { text, images } = contentOf(message);
    if (message.role === "system" || message.role === "developer") system.push(text);
    else turns.push({ role: message.role, content: text, ...(images.length ? { images } : {}) });
  }
  return { system: system.length ? system.join("\n\n") : undefined, turns };
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
  };
  const size = holdFor({ maxOutputTokens: request.maxOutputTokens, prompt: [system, ...turns.map((turn) => turn.content)] });
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
 * The answer's text as it comes, through the chat's own path (`streamCompletion`, the model's `doStream`), with the
 * chat's wait for the first text; its end (why it stopped, the usage); a provider failure thrown as the chat words it
 * (`toProviderError`). The hold is settled at the end, whatever it is: an answer, a failure, the caller's abort (a
 * client gone), or the caller leaving the loop.
 */
async function* answer(call: {
  request: Omit<StreamRequest, "abortSignal">;
  abortSignal: AbortSignal;
  hold: AiHold;
  allowance: AiAllowance;
  limits: CompletionLimits;
  resolved: ResolvedModel;
  log: ProviderFailureLog;
}): AsyncGenerator<string, CompletionEnd> {
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
  let received = "";
  let usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined;
  let finishReason: FinishReason = "stop";
  try {
    for await (const part of streamCompletion({ ...call.request, abortSignal: controller.signal })) {
      if (part.type === "text") {
        clearTimeout(firstChunkTimer);
        received += part.text;
        yield part.text;
      } else if (part.type === "finish") {
        usage = part.usage;
        finishReason = FINISH[part.reason] ?? "stop";
      } else if (part.type === "error") {
        throw timedOut ? Object.assign(new Error("first chunk timeout"), { name: "TimeoutError" }) : part.error;
      }
    }
    const prompt = usage?.inputTokens ?? 0;
    const completion = usage?.outputTokens ?? 0;
    return { finishReason, usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } };
  } catch (error) {
    throw toProviderError(error, { platform: call.resolved.platform, model: call.resolved.modelId, log: call.log });
  } finally {
    clearTimeout(firstChunkTimer);
    call.abortSignal.removeEventListener("abort", passOn);
    // Ended by us (the client gone, the first-chunk wait over) after the request left: at least the prompt's estimate
    // (`spentTokens`, decision 053); a provider's refusal or error before the answer spends nothing.
    const cut = cutAfterSent(controller.signal, abortedBeforeSent);
    await call.allowance.settle(call.hold.id, spentTokens(call.hold.promptEstimate, { usage, received, cut }));
  }
}

/** The whole answer (`stream` false): the text read to its end. */
export async function wholeCompletion(admitted: AdmittedCompletion, abortSignal: AbortSignal): Promise<ChatCompletion> {
  const parts = admitted.answer(abortSignal);
  let content = "";
  for (let next = await parts.next(); ; next = await parts.next()) {
    if (next.done) {
      return {
        id: admitted.id,
        object: "chat.completion",
        created: admitted.created,
        model: admitted.model,
        choices: [
          { index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: next.value.finishReason },
        ],
        usage: next.value.usage,
      };
    }
    content += next.value;
  }
}
