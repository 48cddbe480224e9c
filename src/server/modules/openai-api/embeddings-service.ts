import { type EmbeddingList, type EmbeddingsBody, OPENAI_MESSAGES } from "../../../shared/contracts/openai.js";
import { parseModelValue } from "../../../shared/model-choice.js";
import { embeddingErrorStatus, embedTexts } from "../../ai/embed.js";
import { type ProviderFailureLog, toProviderError } from "../../ai/provider-error.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import type { Who } from "../../lib/who.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import { readEmbeddingConfig } from "../knowledge/embedding-settings-service.js";
import { isV1ChatModel, notAnEmbeddingModel } from "./models-service.js";

/** A vector as `encoding_format: "base64"` sends it: its float32 values, little-endian, in base64 (as OpenAI does). */
function base64Vector(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}

/** What a provider's refusal said: the SDK's message and the response's body (the last try's, after retries). */
function providerWords(error: unknown): string {
  const last = (error as { lastError?: unknown } | null)?.lastError ?? error;
  const { message, responseBody } = (last ?? {}) as { message?: unknown; responseBody?: unknown };
  return `${String(message ?? "")} ${String(responseBody ?? "")}`;
}

/** The 400 for a size the embedding model cannot give, naming `dimensions` (OpenAI's param). */
function dimensionsRefused(model: string, dimensions: number): AppError {
  const message = OPENAI_MESSAGES.dimensionsNotOffered(model, dimensions);
  return new AppError("BAD_REQUEST", message, { errors: { dimensions: message } });
}

/**
 * POST /v1/embeddings: the texts' vectors from the embedding model an administrator set up (the library's, decision
 * 036), the only one there is; 404 when the request names another or none is set up. Spent from the user's allowance
 * (held and settled, decision 028) and counted as a running call like a completion. `dimensions` is passed on
 * (decision 054); a model that cannot give that size (its provider refuses it, or answers vectors of another size)
 * is a 400 naming `dimensions`.
 */
export async function createEmbeddings(options: {
  db: Db;
  who: Who;
  deps: PlatformDeps;
  input: EmbeddingsBody;
  maxRunning: number;
  log: ProviderFailureLog;
}): Promise<EmbeddingList> {
  const { db, deps, input } = options;
  const config = await readEmbeddingConfig(db, deps);
  if (!config) throw new AppError("NOT_FOUND", OPENAI_MESSAGES.noEmbeddingModel);
  if (input.model !== config.key) {
    if (await isV1ChatModel({ db, deps, who: options.who, id: input.model })) throw notAnEmbeddingModel(input.model);
    throw new AppError("NOT_FOUND", OPENAI_MESSAGES.unknownModel(input.model));
  }
  const texts = typeof input.input === "string" ? [input.input] : input.input;
  let result: Awaited<ReturnType<typeof embedTexts>>;
  try {
    result = await embedTexts({
      access: config.access,
      modelId: config.modelId,
      texts,
      spend: { allowance: deps.allowance, userId: options.who.id, maxRunning: options.maxRunning },
      ...(input.dimensions ? { dimensions: input.dimensions } : {}),
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = embeddingErrorStatus(error);
    if (input.dimensions && status && status >= 400 && status < 500 && status !== 401 && status !== 404 && status !== 429) {
      // The provider refused the request that named a size; the words say whether the size is why.
      if (/dimension/i.test(providerWords(error))) throw dimensionsRefused(config.key, input.dimensions);
    }
    const platform = { name: config.platformName, slug: parseModelValue(config.key).slug };
    throw toProviderError(error, { platform, model: config.modelId, log: options.log, callerRequest: true });
  }
  // A server that ignores the size asked for (an older Ollama...) answers its own: refused rather than passed on as asked.
  if (input.dimensions && result.embeddings.some((vector) => vector.length !== input.dimensions)) {
    throw dimensionsRefused(config.key, input.dimensions);
  }
  const base64 = input.encoding_format === "base64";
  return {
    object: "list",
    data: result.embeddings.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: base64 ? base64Vector(vector) : vector,
    })),
    model: input.model,
    usage: { prompt_tokens: result.tokens, total_tokens: result.tokens },
  };
}
