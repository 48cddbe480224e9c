import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { PlatformApi, PlatformKind } from "../../shared/contracts/ai-platforms.js";
import { heldFetch } from "./held-fetch.js";

/** What it takes to talk to one platform: resolved from the database (key decrypted) or the environment. */
export interface ProviderAccess {
  kind: PlatformKind;
  /** Which OpenAI API (OpenAI only; decision 050): Chat Completions unless said. */
  api?: PlatformApi;
  slug: string;
  apiKey: string | null;
  baseUrl: string | null;
}

/**
 * The real model of a platform, its provider's SDK imported on first use (issue 15: an idle server loads none). Its
 * requests go through `heldFetch`, so a reply's request waits for its start to be stored (decision 057).
 */
async function loadModel(access: ProviderAccess, modelId: string): Promise<LanguageModelV4> {
  const apiKey = access.apiKey ?? "";
  const baseURL = access.baseUrl ?? undefined;
  const fetch = heldFetch;
  switch (access.kind) {
    case "openai": {
      // .chat(): the Chat Completions API, which every OpenAI-compatible gateway also speaks; .responses() when the
      // admin chose the Responses API for the platform.
      const openai = (await import("@ai-sdk/openai")).createOpenAI({ apiKey, baseURL, fetch });
      return access.api === "responses" ? openai.responses(modelId) : openai.chat(modelId);
    }
    case "anthropic":
      return (await import("@ai-sdk/anthropic")).createAnthropic({ apiKey, baseURL, fetch })(modelId);
    case "deepseek":
      return (await import("@ai-sdk/deepseek")).createDeepSeek({ apiKey, baseURL, fetch })(modelId);
    case "mistral":
      return (await import("@ai-sdk/mistral")).createMistral({ apiKey, baseURL, fetch })(modelId);
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const settings = {
        name: access.slug,
        baseURL: baseURL ?? "http://127.0.0.1:11434/v1",
        apiKey: apiKey || undefined,
        includeUsage: true,
        fetch,
      };
      return schemaOrPlain(
        createOpenAICompatible({ ...settings, supportsStructuredOutputs: true })(modelId),
        createOpenAICompatible(settings)(modelId),
      );
    }
  }
}

/** A provider's refusal of the `json_schema` response format (a 400 or 422 that names it), as servers without it answer. */
export function refusesSchema(error: unknown): boolean {
  const e = error as { statusCode?: unknown; responseBody?: unknown; message?: unknown } | null;
  if (!e || (e.statusCode !== 400 && e.statusCode !== 422)) return false;
  return /response_format|json_schema|structured output/i.test(`${String(e.responseBody ?? "")} ${String(e.message ?? "")}`);
}

/**
 * An OpenAI-compatible server's model (decision 059). Most such servers (Ollama, vLLM, llama.cpp, LM Studio, most
 * gateways) take OpenAI's `json_schema` response format, so a structured answer is asked with its schema
 * (`structured`); one that refuses it gets the same call again as JSON mode (`plain`: `json_object`, the shape named
 * in the prompt by `completeObject`), and this model asks that way from then on. Calls without a schema are the same
 * on both.
 */
function schemaOrPlain(structured: LanguageModelV4, plain: LanguageModelV4): LanguageModelV4 {
  let refused = false;
  const ask = async <R>(options: LanguageModelV4CallOptions, call: (model: LanguageModelV4) => PromiseLike<R>): Promise<R> => {
    if (refused || options.responseFormat?.type !== "json" || options.responseFormat.schema === undefined) return call(plain);
    try {
      return await call(structured);
    } catch (error) {
      if (!refusesSchema(error)) throw error;
      refused = true;
      return call(plain);
    }
  };
  return {
    specificationVersion: "v4",
    provider: structured.provider,
    modelId: structured.modelId,
    supportedUrls: structured.supportedUrls,
    doGenerate: (options) => ask(options, (model) => model.doGenerate(options)),
    doStream: (options) => ask(options, (model) => model.doStream(options)),
  };
}

/** The provider name each SDK gives its models (the AI SDK keys provider options and metadata by it). */
export function providerName(access: Pick<ProviderAccess, "kind" | "slug" | "api">): string {
  switch (access.kind) {
    case "openai":
      return access.api === "responses" ? "openai.responses" : "openai.chat";
    case "anthropic":
      return "anthropic.messages";
    case "deepseek":
      return "deepseek.chat";
    case "mistral":
      return "mistral.chat";
    case "openai-compatible":
      return `${access.slug}.chat`;
  }
}

/**
 * The one place that turns a platform into an AI SDK model. Every provider honours `baseUrl`, so a platform
 * can go through a proxy or gateway (and the tests point them at local stand-ins). The model is created at
 * once but its SDK loads on its first call, so a server that has not talked to a provider yet holds none of
 * their code; `language-model.test.ts` checks the names given here against the real models'.
 */
/**
 * OpenAI's Responses API keeps every request on OpenAI's side unless told not to (`store`, on by default): our rows are
 * the conversation (decision 050), so a platform on the Responses API asks for nothing to be stored.
 */
function notStored(options: LanguageModelV4CallOptions): LanguageModelV4CallOptions {
  return { ...options, providerOptions: { ...options.providerOptions, openai: { ...options.providerOptions?.openai, store: false } } };
}

export function languageModelFor(access: ProviderAccess, modelId: string): LanguageModelV4 {
  const callOptions = access.kind === "openai" && access.api === "responses" ? notStored : (options: LanguageModelV4CallOptions) => options;
  let loading: Promise<LanguageModelV4> | undefined;
  const real = () => {
    loading ??= loadModel(access, modelId);
    return loading;
  };
  const model: LanguageModelV4 = {
    specificationVersion: "v4",
    provider: providerName(access),
    modelId,
    get supportedUrls() {
      return real().then((loaded) => loaded.supportedUrls);
    },
    doGenerate: async (options) => (await real()).doGenerate(callOptions(options)),
    doStream: async (options) => (await real()).doStream(callOptions(options)),
  };
  return model;
}
