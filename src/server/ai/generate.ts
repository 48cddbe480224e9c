import { generateText, type LanguageModel, type ModelMessage, NoObjectGeneratedError, Output, streamText } from "ai";
import type { z } from "zod";

/**
 * The only calls to the AI SDK: a whole answer, a structured answer, and a streamed answer.
 * Modules hold a `LanguageModel` (from language-model.ts) and these types, never the SDK itself.
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
}

function sdkOptions(request: CompletionRequest) {
  const { model, system, prompt, messages, temperature, maxOutputTokens, maxRetries, timeout, abortSignal } = request;
  const input = messages ? { messages } : { prompt: prompt ?? "" };
  return { model, instructions: system, ...input, temperature, maxOutputTokens, maxRetries, timeout, abortSignal };
}

/** One whole answer as text. Provider failures are thrown as the SDK raised them (see provider-error.ts). */
export async function completeText(request: CompletionRequest): Promise<string> {
  const result = await generateText(sdkOptions(request));
  return result.text;
}

/** An answer that must match `schema`; null when the model answered something else (the caller may ask again). */
export async function completeObject<T>(request: CompletionRequest & { schema: z.ZodType<T>; name: string }): Promise<T | null> {
  try {
    const result = await generateText({ ...sdkOptions(request), output: Output.object({ schema: request.schema, name: request.name }) });
    return result.output as T;
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) return null;
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
  const result = streamText({ ...sdkOptions(request), onError: () => {} });
  for await (const part of result.fullStream) {
    if (part.type === "text-delta") {
      if (part.text) yield { type: "text", text: part.text };
    } else if (part.type === "finish") yield { type: "finish", usage: part.totalUsage };
    else if (part.type === "error") yield { type: "error", error: part.error };
    else if (part.type === "abort") yield { type: "abort", reason: part.reason };
  }
}
