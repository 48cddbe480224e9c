import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import type { PlatformKind } from "../../shared/contracts/ai-platforms.js";

/** What it takes to talk to one platform: resolved from the database (key decrypted) or the environment. */
export interface ProviderAccess {
  kind: PlatformKind;
  slug: string;
  apiKey: string | null;
  baseUrl: string | null;
}

/**
 * The one place that turns a platform into an AI SDK model. Every provider
 * honours `baseUrl`, so a platform can go through a proxy or gateway (and the
 * tests point them at local stand-ins).
 */
export function languageModelFor(access: ProviderAccess, modelId: string): LanguageModel {
  const apiKey = access.apiKey ?? "";
  const baseURL = access.baseUrl ?? undefined;
  switch (access.kind) {
    case "openai":
      // .chat(): the Chat Completions API, which every OpenAI-compatible gateway also speaks.
      return createOpenAI({ apiKey, baseURL }).chat(modelId);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL })(modelId);
    case "deepseek":
      return createDeepSeek({ apiKey, baseURL })(modelId);
    case "mistral":
      return createMistral({ apiKey, baseURL })(modelId);
    case "openai-compatible":
      return createOpenAICompatible({
        name: access.slug,
        baseURL: baseURL ?? "http://127.0.0.1:11434/v1",
        apiKey: apiKey || undefined,
        includeUsage: true,
      })(modelId);
  }
}
