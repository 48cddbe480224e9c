// Proves the provider fakes speak the real wire formats: the real AI SDK providers run against them by base URL
// (OpenAI's both APIs: Chat Completions and Responses).
import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, type LanguageModel, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import { countWords, textOf } from "../fakes/fake-behaviour.js";
import { DEFAULT_API_KEY, type FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";

let openAiFake: FakeProvider;
let anthropicFake: FakeProvider;
beforeAll(async () => {
  openAiFake = await startOpenAiCompatibleFake();
  anthropicFake = await startAnthropicFake();
});
afterAll(async () => {
  await openAiFake?.close();
  await anthropicFake?.close();
});

type Body = {
  temperature?: number;
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  /** The Responses API's items (its messages among them). */
  input?: { role?: string; content?: unknown }[];
};

interface Kind {
  name: string;
  fake: () => FakeProvider;
  model: (baseURL: string, apiKey: string, modelId?: string) => LanguageModel;
  path: string;
  systemOf: (body: Body) => string;
  /** What a wrong-key error body looks like for this provider. */
  authErrorBody: object;
}

const openAiSystem = (body: Body) => textOf(body.messages?.find((m) => m.role === "system")?.content);
const openAiAuthError = { error: { type: "invalid_request_error", code: "invalid_api_key" } };

const kinds: Kind[] = [
  {
    name: "openai",
    fake: () => openAiFake,
    // createOpenAI(...)(id) is the Responses API in @ai-sdk/openai v4; Chat Completions needs .chat(id).
    model: (baseURL, apiKey, id = "gpt-4o-mini") => createOpenAI({ baseURL, apiKey }).chat(id),
    path: "/v1/chat/completions",
    systemOf: openAiSystem,
    authErrorBody: openAiAuthError,
  },
  {
    name: "openai-responses",
    fake: () => openAiFake,
    // The Responses API (decision 050): what an OpenAI platform set to "Responses" speaks.
    model: (baseURL, apiKey, id = "gpt-4o-mini") => createOpenAI({ baseURL, apiKey }).responses(id),
    path: "/v1/responses",
    systemOf: (body) => textOf(body.input?.find((item) => item.role === "system")?.content),
    authErrorBody: openAiAuthError,
  },
  {
    name: "deepseek",
    fake: () => openAiFake,
    model: (baseURL, apiKey, id = "deepseek-chat") => createDeepSeek({ baseURL, apiKey })(id),
    path: "/v1/chat/completions",
    systemOf: openAiSystem,
    authErrorBody: openAiAuthError,
  },
  {
    name: "mistral",
    fake: () => openAiFake,
    model: (baseURL, apiKey, id = "mistral-small-latest") => createMistral({ baseURL, apiKey })(id),
    path: "/v1/chat/completions",
    systemOf: openAiSystem,
    // Mistral's SDK only parses its flat error shape; the fake picks it from the user-agent.
    authErrorBody: { object: "error", type: "invalid_request_error", code: "invalid_api_key" },
  },
  {
    name: "openai-compatible",
    fake: () => openAiFake,
    // No includeUsage: the request has no stream_options, so usage arrives on the finish chunk (Mistral style).
    model: (baseURL, apiKey, id = "local-model") => createOpenAICompatible({ name: "local", baseURL, apiKey })(id),
    path: "/v1/chat/completions",
    systemOf: openAiSystem,
    authErrorBody: openAiAuthError,
  },
  {
    name: "anthropic",
    fake: () => anthropicFake,
    model: (baseURL, apiKey, id = "claude-sonnet-4-5") => createAnthropic({ baseURL, apiKey })(id),
    path: "/v1/messages",
    systemOf: (body) => textOf(body.system),
    authErrorBody: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
  },
];

interface Collected {
  deltas: string[];
  text: string;
  errors: unknown[];
  aborts: (string | undefined)[];
  finish?: { inputTokens?: number; outputTokens?: number; reason: string };
  thrown?: unknown;
}

/** Drains fullStream the way the app does, keeping what each kind of part said and whether iterating threw. */
async function collect(model: LanguageModel, prompt: string, extra: { timeout?: { chunkMs: number } } = {}): Promise<Collected> {
  const out: Collected = { deltas: [], text: "", errors: [], aborts: [] };
  const result = streamText({
    model,
    instructions: "You are a test.",
    prompt,
    temperature: 0.3,
    maxRetries: 0,
    onError: () => {},
    ...extra,
  });
  try {
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") out.deltas.push(part.text);
      else if (part.type === "error") out.errors.push(part.error);
      else if (part.type === "abort") out.aborts.push(part.reason);
      else if (part.type === "finish") {
        out.finish = { inputTokens: part.totalUsage.inputTokens, outputTokens: part.totalUsage.outputTokens, reason: part.finishReason };
      }
    }
  } catch (error) {
    out.thrown = error;
  }
  out.text = out.deltas.join("");
  return out;
}

function apiError(error: unknown): APICallError {
  expect(APICallError.isInstance(error), `expected an APICallError, got ${String(error)}`).toBe(true);
  return error as APICallError;
}

describe.each(kinds)("$name against its fake", (kind) => {
  const model = (apiKey = DEFAULT_API_KEY, id?: string) => kind.model(kind.fake().url, apiKey, id);

  it("streams the Echo reply in ~3-word chunks, with usage on the finish part", async () => {
    const got = await collect(model(), "hello there from the streaming test");
    expect(got.errors).toEqual([]);
    expect(got.text).toBe("Echo: hello there from the streaming test");
    expect(got.deltas).toEqual(["Echo: hello there ", "from the streaming ", "test"]);
    // input = words of the system prompt (4) + the user message (6); output = words of the reply (7)
    expect(got.finish).toEqual({ inputTokens: 10, outputTokens: 7, reason: "stop" });
  });

  it("returns the same reply and usage from generateText (non-streamed JSON)", async () => {
    const result = await generateText({ model: model(), prompt: "plain generate call", maxRetries: 0 });
    expect(result.text).toBe("Echo: plain generate call");
    expect(result.usage.inputTokens).toBe(3);
    expect(result.usage.outputTokens).toBe(4);
    expect(kind.fake().requests.at(-1)?.body).not.toHaveProperty("stream", true);
  });

  it("records the path, key, system prompt and temperature the SDK sent", async () => {
    const before = kind.fake().requests.length;
    await collect(model(), "check the recording");
    const recorded = kind.fake().requests.slice(before);
    expect(recorded).toHaveLength(1);
    const request = recorded[0]!;
    const body = request.body as Body;
    expect(request.path).toBe(kind.path);
    expect(JSON.stringify(request.headers)).toContain(DEFAULT_API_KEY);
    expect(kind.systemOf(body)).toBe("You are a test.");
    expect(body.temperature).toBe(0.3);
  });

  it("turns a wrong key into a 401 APICallError that talks about the key", async () => {
    const got = await collect(model("sk-wrong-key-000000000000"), "hello");
    expect(got.text).toBe("");
    const error = apiError(got.errors[0]);
    expect(error.statusCode).toBe(401);
    expect(error.message).toMatch(/api key|x-api-key/i);
    expect(error.message).not.toContain("sk-wrong-key-000000000000"); // the fake masks keys as the real API does
    expect(JSON.parse(error.responseBody ?? "{}")).toMatchObject(kind.authErrorBody);
  });

  it("answers #error=429 with a retryable 429 and retry-after, and #error=500/503 with those codes", async () => {
    const limited = apiError((await collect(model(), "please #error=429")).errors[0]);
    expect(limited.statusCode).toBe(429);
    expect(limited.isRetryable).toBe(true);
    expect(limited.responseHeaders?.["retry-after"]).toBe("1");
    for (const status of [500, 503]) {
      expect(apiError((await collect(model(), `please #error=${status}`)).errors[0]).statusCode).toBe(status);
    }
  });

  it("answers 404 model-not-found for missing-model", async () => {
    const error = apiError((await collect(model(DEFAULT_API_KEY, "missing-model"), "hello")).errors[0]);
    expect(error.statusCode).toBe(404);
    expect(error.message).toContain("missing-model");
  });

  // Documented behaviour: a dropped connection is NOT an error part. The text already received is delivered, there is
  // no finish part, and iterating fullStream THROWS an APICallError (statusCode 200, "Failed to process successful
  // response") whose cause is undici's "terminated" TypeError.
  it("#cut: delivers the first chunks, then fullStream iteration throws", async () => {
    const got = await collect(model(), "please #cut");
    expect(got.text).toBe("Cut reply: word1 word2 word3 word4 word5 word6 word7 ");
    expect(got.finish).toBeUndefined();
    const error = apiError(got.thrown);
    expect(error.statusCode).toBe(200);
    expect(String((error.cause as Error | undefined)?.message)).toMatch(/terminated/i);
  });

  // Documented behaviour: the chunk timeout aborts the call; the stream ends with an `abort` part (reason
  // "TimeoutError: Chunk timeout of 300ms exceeded"), no error part, no finish part, nothing thrown.
  it("#hang with timeout.chunkMs 300 ends with an abort part within 2 s", async () => {
    const started = Date.now();
    const got = await collect(model(), "please #hang now", { timeout: { chunkMs: 300 } });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(got.text).toBe("Echo: please #hang ");
    expect(got.aborts).toHaveLength(1);
    expect(got.aborts[0]).toMatch(/timeout/i);
    expect(got.finish).toBeUndefined();
    expect(got.thrown).toBeUndefined();
  });
});

describe("fake behaviour details", () => {
  const openai = (fake: FakeProvider, apiKey = DEFAULT_API_KEY) => createOpenAI({ baseURL: fake.url, apiKey }).chat("gpt-4o-mini");

  it("#slow streams 40 words starting with 'Slow reply:' at 200 ms per chunk", async () => {
    const started = Date.now();
    const got = await collect(openai(openAiFake), "go #slow");
    expect(got.text.startsWith("Slow reply:")).toBe(true);
    expect(countWords(got.text)).toBe(40);
    expect(got.deltas).toHaveLength(14);
    expect(Date.now() - started).toBeGreaterThanOrEqual(13 * 200 - 50);
  }, 10_000);

  it("#long gives ~400 words of markdown with a heading, a list and a ts code block", async () => {
    const got = await collect(createAnthropic({ baseURL: anthropicFake.url, apiKey: DEFAULT_API_KEY })("claude-sonnet-4-5"), "#long");
    expect(countWords(got.text)).toBeGreaterThanOrEqual(400);
    expect(countWords(got.text)).toBeLessThan(450);
    expect(got.text).toMatch(/^## /);
    expect(got.text).toMatch(/^- /m);
    expect(got.text).toMatch(/```ts\n[\s\S]+\n```/);
  });

  it("#markdown-xss carries the hostile links next to a normal one", async () => {
    const got = await collect(openai(openAiFake), "#markdown-xss");
    for (const bit of [
      "[click](javascript:alert(1))",
      "![img](javascript:alert(2))",
      "<script>alert(3)</script>",
      "[ok](https://example.com)",
    ]) {
      expect(got.text).toContain(bit);
    }
  });

  it("setChunkDelay changes the pause between chunks", async () => {
    const fake = await startOpenAiCompatibleFake({ chunkDelayMs: 0 });
    try {
      fake.setChunkDelay(150);
      const started = Date.now();
      const got = await collect(openai(fake), "one two three four five six seven eight"); // 9 words, 3 chunks, 2 pauses
      expect(got.deltas).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 150 - 20);
    } finally {
      await fake.close();
    }
  });

  it("onFirstChunk tells each stream's first chunk once, with its body, after the first-chunk pause; a whole answer tells nothing", async () => {
    const told: { text: string; receivedAt: number; writtenAt: number }[] = [];
    const options = {
      chunkDelayMs: 0,
      firstChunkDelayMs: 120,
      onFirstChunk: (body: unknown, times: { receivedAt: number; writtenAt: number }) => {
        const messages = (body as { messages: { content: unknown }[] }).messages;
        told.push({ text: textOf(messages.at(-1)?.content), ...times });
      },
    };
    const fake = await startOpenAiCompatibleFake(options);
    const claude = await startAnthropicFake(options);
    try {
      const sent = performance.now();
      expect((await collect(openai(fake), "first stream of six words")).text).toBe("Echo: first stream of six words");
      expect((await collect(createAnthropic({ baseURL: claude.url, apiKey: DEFAULT_API_KEY })("c"), "second one")).text).toBe(
        "Echo: second one",
      );
      await generateText({ model: openai(fake), prompt: "not streamed", maxRetries: 0 });
      expect(told.map((t) => t.text)).toEqual(["first stream of six words", "second one"]);
      for (const { receivedAt, writtenAt } of told) {
        expect(receivedAt).toBeGreaterThanOrEqual(sent);
        expect(writtenAt - receivedAt).toBeGreaterThanOrEqual(120 - 5);
      }
    } finally {
      await fake.close();
      await claude.close();
    }
  });

  it("with apiKey null accepts any key (and none)", async () => {
    const open = await startOpenAiCompatibleFake({ apiKey: null });
    const openAnthropic = await startAnthropicFake({ apiKey: null });
    try {
      expect((await collect(openai(open, "anything"), "hi")).text).toBe("Echo: hi");
      const keyless = createOpenAICompatible({ name: "keyless", baseURL: open.url })("m");
      expect((await collect(keyless, "hi")).text).toBe("Echo: hi");
      expect((await collect(createAnthropic({ baseURL: openAnthropic.url, apiKey: "whatever" })("c"), "hi")).text).toBe("Echo: hi");
    } finally {
      await open.close();
      await openAnthropic.close();
    }
  });

  it("lists models on GET /models, behind the key", async () => {
    const ok = await fetch(`${openAiFake.url}/models`, { headers: { authorization: `Bearer ${DEFAULT_API_KEY}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      object: "list",
      data: expect.arrayContaining([expect.objectContaining({ id: "gpt-4o-mini" })]),
    });
    expect((await fetch(`${openAiFake.url}/models`)).status).toBe(401);
    const claude = await fetch(`${anthropicFake.url}/models`, {
      headers: { "x-api-key": DEFAULT_API_KEY, "anthropic-version": "2023-06-01" },
    });
    expect(((await claude.json()) as { data: { id: string }[] }).data[0]?.id).toBe("claude-sonnet-4-5");
  });

  it("the Anthropic fake refuses a request without anthropic-version, as the real API does", async () => {
    const res = await fetch(`${anthropicFake.url}/messages`, {
      method: "POST",
      headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ model: "c", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("#hang-start never answers, and close() still returns at once with requests hanging", async () => {
    const fake = await startAnthropicFake();
    const post = (text: string) =>
      fetch(`${fake.url}/messages`, {
        method: "POST",
        headers: { "x-api-key": DEFAULT_API_KEY, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({ model: "c", max_tokens: 10, stream: true, messages: [{ role: "user", content: text }] }),
      });
    await expect(Promise.race([post("#hang-start"), new Promise((resolve) => setTimeout(() => resolve("no answer"), 300))])).resolves.toBe(
      "no answer",
    );
    const hanging = await post("#hang"); // headers and the first events arrive, then nothing
    expect(hanging.status).toBe(200);
    const bodyDone = hanging.text().then(
      () => "ended",
      () => "dropped",
    );
    const started = Date.now();
    await fake.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await bodyDone).toBe("dropped");
    expect(fake.requests).toHaveLength(2);
  });
});
