import type { LanguageModel, ModelMessage } from "ai";
import type { z } from "zod";
import { cleanProviderText, cleanProviderValue, StreamTextCleaner } from "./clean-text.js";

/**
 * The only calls to the AI SDK: a whole answer, a structured answer, and a streamed answer.
 * Modules hold a `LanguageModel` (from language-model.ts) and these types, never the SDK itself.
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
  /** A whole-call limit (ms), or separate limits for the first chunk and between chunks of a stream. */
  timeout?: number | { firstChunkMs: number; chunkMs: number };
  abortSignal?: AbortSignal;
  /** Told the tokens a whole answer spent (usage allowances, decision 016), before the answer returns. */
  onUsage?: (usage: { inputTokens?: number; outputTokens?: number }) => Promise<void> | void;
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

function sdkOptions(request: CompletionRequest) {
  const { model, system, prompt, messages, temperature, maxOutputTokens, maxRetries, timeout, abortSignal } = request;
  const input = messages ? { messages } : { prompt: prompt ?? "" };
  // No telemetry is registered: saying so spares each call the SDK's span and event bookkeeping (issue 15).
  const telemetry = { isEnabled: false };
  return { model, instructions: system, ...input, temperature, maxOutputTokens, maxRetries, timeout, abortSignal, telemetry };
}

/** One whole answer as text. Provider failures are thrown as the SDK raised them (see provider-error.ts). */
export async function completeText(request: CompletionRequest): Promise<string> {
  const { generateText } = await loadAi();
  const result = await generateText(sdkOptions(request));
  await request.onUsage?.(result.totalUsage);
  return cleanProviderText(result.text);
}

/** An answer that must match `schema`; null when the model answered something else (the caller may ask again). */
export async function completeObject<T>(request: CompletionRequest & { schema: z.ZodType<T>; name: string }): Promise<T | null> {
  const { generateText, NoObjectGeneratedError, Output } = await loadAi();
  try {
    const result = await generateText({ ...sdkOptions(request), output: Output.object({ schema: request.schema, name: request.name }) });
    await request.onUsage?.(result.totalUsage);
    return cleanProviderValue(result.output) as T;
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      // The answer did not fit the schema, but its tokens were spent all the same.
      if (error.usage) await request.onUsage?.(error.usage);
      return null;
    }
    throw error;
  }
}

/** What a streamed answer yields: text pieces, then its usage, or why it ended early. */
export type CompletionPart =
  | { type: "text"; text: string }
  | { type: "finish"; usage: { inputTokens?: number; outputTokens?: number } }
  | { type: "error"; error: unknown }
  | { type: "abort"; reason: string | undefined };

/** A streamed answer. Errors arrive as parts, not as throws (the SDK would otherwise also print them). */
export async function* streamCompletion(request: CompletionRequest): AsyncGenerator<CompletionPart> {
  const { streamText } = await loadAi();
  const result = streamText({ ...sdkOptions(request), onError: () => {} });
  const cleaner = new StreamTextCleaner();
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") {
      const text = cleaner.push(part.text);
      if (text) yield { type: "text", text };
    } else if (part.type === "finish") yield { type: "finish", usage: part.totalUsage };
    else if (part.type === "error") yield { type: "error", error: part.error };
    else if (part.type === "abort") yield { type: "abort", reason: part.reason };
  }
}
