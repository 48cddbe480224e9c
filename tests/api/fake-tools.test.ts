// Proves the stand-ins' tool calls speak the real wire formats: the real AI SDK providers call a tool the fake asks
// for (streamed and whole), run it, send its result back in their own format, and the fake answers with what it got.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, isStepCount, type LanguageModel, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
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

interface Kind {
  name: string;
  fake: () => FakeProvider;
  model: () => LanguageModel;
  /** Where the second request carries the tool's result, in this wire format. */
  resultSent: (body: { messages?: { role: string; content: unknown }[] }) => unknown;
}

const openAiResult = (body: { messages?: { role: string; content: unknown }[] }) => body.messages?.find((m) => m.role === "tool")?.content;
const kinds: Kind[] = [
  {
    name: "openai",
    fake: () => openAiFake,
    model: () => createOpenAI({ baseURL: openAiFake.url, apiKey: DEFAULT_API_KEY }).chat("gpt-4o-mini"),
    resultSent: openAiResult,
  },
  {
    name: "openai-responses",
    fake: () => openAiFake,
    model: () => createOpenAI({ baseURL: openAiFake.url, apiKey: DEFAULT_API_KEY }).responses("gpt-4o-mini"),
    // The result goes back as a `function_call_output` item of the request's `input`.
    resultSent: (body) => (body as { input?: { type?: string; output?: unknown }[] }).input?.find((i) => i.type === "function_call_output"),
  },
  {
    name: "deepseek",
    fake: () => openAiFake,
    model: () => createDeepSeek({ baseURL: openAiFake.url, apiKey: DEFAULT_API_KEY })("deepseek-chat"),
    resultSent: openAiResult,
  },
  {
    name: "mistral",
    fake: () => openAiFake,
    model: () => createMistral({ baseURL: openAiFake.url, apiKey: DEFAULT_API_KEY })("mistral-small-latest"),
    resultSent: openAiResult,
  },
  {
    name: "openai-compatible",
    fake: () => openAiFake,
    model: () => createOpenAICompatible({ name: "local", baseURL: openAiFake.url, apiKey: DEFAULT_API_KEY })("local-model"),
    resultSent: openAiResult,
  },
  {
    name: "anthropic",
    fake: () => anthropicFake,
    model: () => createAnthropic({ baseURL: anthropicFake.url, apiKey: DEFAULT_API_KEY })("claude-sonnet-4-5"),
    resultSent: (body) => {
      const last = body.messages?.at(-1)?.content;
      return Array.isArray(last) ? last.find((part: { type?: string }) => part.type === "tool_result") : undefined;
    },
  },
];

const ran: { name: string; input: unknown }[] = [];
const tools = {
  lookup: tool({
    description: "Looks a word up.",
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      ran.push({ name: "lookup", input: { query } });
      return `found ${query}`;
    },
  }),
  clock: tool({
    description: "The time.",
    inputSchema: z.object({}),
    execute: async () => {
      ran.push({ name: "clock", input: {} });
      return "noon";
    },
  }),
};

describe.each(kinds)("$name tool calls against the stand-in", (kind) => {
  it("streams a call with its arguments in pieces, takes the result back and answers with it", async () => {
    ran.length = 0;
    const before = kind.fake().requests.length;
    const result = streamText({
      model: kind.model(),
      prompt: 'Please #tool=lookup{"query":"chloroplast membrane"}',
      tools,
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    const calls: { toolName: string; input: unknown }[] = [];
    let inputDeltas = 0;
    for await (const part of result.fullStream) {
      if (part.type === "tool-call") calls.push({ toolName: part.toolName, input: part.input });
      if (part.type === "tool-input-delta") inputDeltas++;
      if (part.type === "error") throw part.error;
    }
    expect(calls).toEqual([{ toolName: "lookup", input: { query: "chloroplast membrane" } }]);
    expect(inputDeltas).toBeGreaterThan(1);
    expect(ran).toEqual([{ name: "lookup", input: { query: "chloroplast membrane" } }]);
    expect(await result.text).toContain("Tool results:");
    expect(await result.text).toContain("found chloroplast membrane");
    const sent = kind.fake().requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(JSON.stringify(sent[0]?.body)).toContain("lookup");
    expect(JSON.stringify(kind.resultSent(sent[1]?.body as never))).toContain("found chloroplast membrane");
    expect((await result.steps)[0]?.finishReason).toBe("tool-calls");
  });

  it("answers whole (not streamed) calls too, several in one turn", async () => {
    ran.length = 0;
    const result = await generateText({
      model: kind.model(),
      prompt: 'Both: #tool=clock and #tool=lookup{"query":"leaf"}',
      tools,
      stopWhen: isStepCount(3),
      maxRetries: 0,
    });
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ["clock", {}],
      ["lookup", { query: "leaf" }],
    ]);
    expect(ran.map((r) => r.name)).toEqual(["clock", "lookup"]);
    expect(result.text).toContain("noon");
    expect(result.text).toContain("found leaf");
  });

  it("ignores a directive for a tool the request does not offer, and tools when none are asked for", async () => {
    const unknown = await generateText({ model: kind.model(), prompt: "Use #tool=weather please", tools, maxRetries: 0 });
    expect(unknown.toolCalls).toEqual([]);
    expect(unknown.text).toBe("Echo: Use #tool=weather please");
    const plain = await generateText({ model: kind.model(), prompt: "just talk", tools, maxRetries: 0 });
    expect(plain.text).toBe("Echo: just talk");
  });
});
