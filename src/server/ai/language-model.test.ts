import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { PLATFORM_KINDS } from "../../shared/constants.js";
import type { PlatformKind } from "../../shared/contracts/ai-platforms.js";
import { languageModelFor } from "./language-model.js";

const BASE_URL = "http://127.0.0.1:9/v1";
const access = (kind: PlatformKind) => ({ kind, slug: "my-gateway", apiKey: "sk-test", baseUrl: BASE_URL });

/** The model each SDK makes for these settings, loaded eagerly here to compare with the lazy one. */
const REAL: Record<PlatformKind, () => LanguageModelV4> = {
  openai: () => createOpenAI({ apiKey: "sk-test", baseURL: BASE_URL }).chat("some-model"),
  anthropic: () => createAnthropic({ apiKey: "sk-test", baseURL: BASE_URL })("some-model"),
  deepseek: () => createDeepSeek({ apiKey: "sk-test", baseURL: BASE_URL })("some-model"),
  mistral: () => createMistral({ apiKey: "sk-test", baseURL: BASE_URL })("some-model"),
  "openai-compatible": () =>
    createOpenAICompatible({ name: "my-gateway", baseURL: BASE_URL, apiKey: "sk-test", includeUsage: true })("some-model"),
};

describe("languageModelFor (the providers' SDKs load on first use)", () => {
  it.each(PLATFORM_KINDS)("%s: the same version, provider name, model id and supported URLs as the SDK's own model", async (kind) => {
    const model = languageModelFor(access(kind), "some-model");
    if (typeof model === "string" || model.specificationVersion !== "v4") throw new Error("expected a v4 model object");
    const real = REAL[kind]();
    expect({ version: model.specificationVersion, provider: model.provider, modelId: model.modelId }).toEqual({
      version: real.specificationVersion,
      provider: real.provider,
      modelId: real.modelId,
    });
    expect(Object.keys(await model.supportedUrls)).toEqual(Object.keys(await real.supportedUrls));
  });

  it("openai with the Responses API: the SDK's responses model, which calls POST /responses", async () => {
    const model = languageModelFor({ ...access("openai"), api: "responses" }, "some-model");
    if (typeof model === "string" || model.specificationVersion !== "v4") throw new Error("expected a v4 model object");
    const real = createOpenAI({ apiKey: "sk-test", baseURL: BASE_URL }).responses("some-model");
    expect({ provider: model.provider, modelId: model.modelId }).toEqual({ provider: real.provider, modelId: real.modelId });
    expect(model.provider).toBe("openai.responses");
    const call = model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
    await expect(call).rejects.toSatisfy((error) => APICallError.isInstance(error) && String(error.url) === `${BASE_URL}/responses`);
  });

  it("asks OpenAI's Responses API to store nothing (store: false); the Chat Completions API gets no such field", async () => {
    const bodies: Record<string, unknown>[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        bodies.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(500, { "content-type": "application/json" }).end('{"error":{"message":"stop here"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      for (const api of ["responses", "chat-completions"] as const) {
        const model = languageModelFor({ ...access("openai"), baseUrl, api }, "some-model");
        if (typeof model === "string" || model.specificationVersion !== "v4") throw new Error("expected a v4 model object");
        await Promise.resolve(model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).catch(() => {});
      }
      expect(bodies.map((body) => body.store)).toEqual([false, undefined]);
    } finally {
      server.close();
    }
  });

  it("hands a call to the real model: its SDK reaches the address and fails as the SDK fails", async () => {
    const model = languageModelFor(access("openai"), "some-model");
    if (typeof model === "string" || model.specificationVersion !== "v4") throw new Error("expected a v4 model object");
    const call = model.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
    await expect(call).rejects.toSatisfy((error) => APICallError.isInstance(error) && String(error.url).startsWith(BASE_URL));
  });
});
