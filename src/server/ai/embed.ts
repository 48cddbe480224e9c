import { APICallError, type EmbeddingModelV4 } from "@ai-sdk/provider";
import { cutAfterSent, holdFor, type Spend, spentTokens } from "./allowance.js";
import type { ProviderAccess } from "./language-model.js";

/**
 * Embeddings (issue 30, decision 036): a provider's embedding model through the AI SDK's `embedMany`. OpenAI
 * (`text-embedding-3-small`), Mistral (`mistral-embed`) and OpenAI-compatible servers (Ollama, vLLM...) have them;
 * the other kinds have none. Like the other calls, the SDKs load on first use, and the tokens are spent from a
 * user's allowance (`spend`: claimed and held before the call, settled with the provider's figure after it,
 * decision 028).
 */

/** The platform kinds that offer embedding models. */
export const EMBEDDING_KINDS = ["openai", "mistral", "openai-compatible"] as const;

export function offersEmbeddings(kind: string): boolean {
  return (EMBEDDING_KINDS as readonly string[]).includes(kind);
}

async function embeddingModel(access: ProviderAccess, modelId: string): Promise<EmbeddingModelV4> {
  const apiKey = access.apiKey ?? "";
  const baseURL = access.baseUrl ?? undefined;
  switch (access.kind) {
    case "openai":
      return (await import("@ai-sdk/openai")).createOpenAI({ apiKey, baseURL }).embedding(modelId);
    case "mistral":
      return (await import("@ai-sdk/mistral")).createMistral({ apiKey, baseURL }).embedding(modelId);
    case "openai-compatible":
      return (await import("@ai-sdk/openai-compatible"))
        .createOpenAICompatible({ name: access.slug, baseURL: baseURL ?? "http://127.0.0.1:11434/v1", apiKey: apiKey || undefined })
        .embeddingModel(modelId);
    default:
      throw new Error(`${access.kind} has no embedding models`);
  }
}

export interface EmbedRequest {
  access: ProviderAccess;
  modelId: string;
  texts: string[];
  /** The user whose allowance pays (the file's owner); null: nobody's (none today). */
  spend: Spend | null;
  abortSignal?: AbortSignal;
  /** Retries of the SDK inside one call (the ingestion worker retries whole batches with its own backoff). */
  maxRetries?: number;
  /**
   * The size the vectors should have (OpenAI's `dimensions`, Mistral's `output_dimension`: each provider's wire name,
   * through the AI SDK's `dimensions`); absent: the model's own. A model without the choice refuses it or ignores it.
   */
  dimensions?: number;
}

export interface EmbedResult {
  embeddings: number[][];
  tokens: number;
}

/** The texts' vectors, in order; throws the SDK's errors (and the allowance's 429) as they come. */
export async function embedTexts(request: EmbedRequest): Promise<EmbedResult> {
  const { texts, spend } = request;
  if (texts.length === 0) return { embeddings: [], tokens: 0 };
  const [{ embedMany }, model] = await Promise.all([import("ai"), embeddingModel(request.access, request.modelId)]);
  const size = holdFor({ maxOutputTokens: 0, prompt: texts });
  const hold = !spend
    ? null
    : spend.maxRunning
      ? await spend.allowance.claimCall(spend.userId, size, spend.maxRunning, { newMessage: false })
      : await spend.allowance.claim(spend.userId, size);
  const abortedBeforeSent = request.abortSignal?.aborted === true;
  // Each batch is one provider call (the model's most per call), two at a time, so what the batches that answered
  // spent is known when a later one fails: the provider billed those (decision 053). One `embedMany` over everything
  // would throw away their figures with the first failure.
  const perCall = Math.max(1, (await model.maxEmbeddingsPerCall) ?? texts.length);
  const batches: string[][] = [];
  for (let start = 0; start < texts.length; start += perCall) batches.push(texts.slice(start, start + perCall));
  const embeddings: number[][] = [];
  let reported = 0;
  try {
    for (let next = 0; next < batches.length; next += 2) {
      const answers = await Promise.allSettled(
        batches.slice(next, next + 2).map((values) =>
          embedMany({
            model,
            values,
            maxRetries: request.maxRetries ?? 0,
            abortSignal: request.abortSignal,
            maxParallelCalls: 1,
            ...(request.dimensions ? { dimensions: request.dimensions } : {}),
            telemetry: { isEnabled: false },
          }),
        ),
      );
      for (const [index, answer] of answers.entries()) {
        if (answer.status === "rejected") continue;
        const tokens = answer.value.usage?.tokens ?? 0;
        // An answer without a figure: its input's estimate (an embedding's whole cost is its input).
        const batch = batches[next + index] ?? [];
        reported += Number.isFinite(tokens) && tokens > 0 ? tokens : holdFor({ maxOutputTokens: 0, prompt: batch }).promptEstimate;
        embeddings.push(...answer.value.embeddings);
      }
      const failed = answers.find((answer) => answer.status === "rejected");
      if (failed) throw failed.reason;
    }
    return { embeddings, tokens: reported };
  } finally {
    // Providers bill the calls that answered, and one we cut after it left (the worker's abort: at least its input's
    // estimate, decision 053); a failed one costs nothing.
    const cut = cutAfterSent(request.abortSignal, abortedBeforeSent);
    if (spend && hold) await spend.allowance.settle(hold.id, spentTokens(size.promptEstimate, { usage: { inputTokens: reported }, cut }));
  }
}

/** The HTTP status a failed embedding call got from its provider (after the SDK's retries, the last one's), if any. */
export function embeddingErrorStatus(error: unknown): number | undefined {
  const last = (error as { lastError?: unknown } | null)?.lastError ?? error;
  if (APICallError.isInstance(last)) return last.statusCode;
  const cause = (last as { cause?: unknown } | null)?.cause;
  return cause && APICallError.isInstance(cause) ? cause.statusCode : undefined;
}
