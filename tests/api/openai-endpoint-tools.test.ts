import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { OPENAI_MESSAGES } from "../../src/shared/contracts/openai.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { FAKE_KEY, pointPlatformAt, setEmbeddingModel } from "../helpers/chat-setup.js";
import { failureOf, holdsOf as holdsOfUser, listenLocally, scriptUser as scriptUserOf, usedTokens } from "../helpers/openai-client.js";

let t: TestApp;
let openAiFake: FakeProvider;
let anthropicFake: FakeProvider;
let admin: CookieClient;
let origin: string;

beforeAll(async () => {
  [openAiFake, anthropicFake] = await Promise.all([startOpenAiCompatibleFake(), startAnthropicFake()]);
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  for (const slug of ["openai", "mistral"]) await pointPlatformAt(admin, slug, openAiFake);
  await pointPlatformAt(admin, "anthropic-claude", anthropicFake);
  for (const [slug, kind, api] of [
    ["responses", "openai", "responses"],
    ["local", "openai-compatible", "chat-completions"],
  ] as const) {
    const created = await admin.call(aiPlatformsApi.create, {
      body: {
        name: slug,
        slug,
        kind,
        api,
        apiKey: FAKE_KEY,
        baseUrl: openAiFake.url,
        settings: { models: ["fake-model"], freeModels: ["fake-model"], temperature: 0.7, maxTokens: 1024 },
      },
    });
    expect(created.status, created.response.body).toBe(201);
  }
  origin = await listenLocally(t);
});
afterAll(async () => {
  await t?.close();
  await openAiFake?.close();
  await anthropicFake?.close();
});

const scriptUser = (scopes?: string[]) => scriptUserOf(t, origin, scopes);
const holdsOf = (userId: number) => holdsOfUser(t, userId);

const LOOKUP: OpenAI.ChatCompletionTool = {
  type: "function",
  function: {
    name: "lookup",
    description: "Looks a word up in the user's notes.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
};
const CLOCK: OpenAI.ChatCompletionTool = { type: "function", function: { name: "clock" } };

/** The provider's requests since `from`, as each stand-in recorded them (chat completions, messages, responses). */
const sentSince = (fake: FakeProvider, from: number) =>
  fake.requests.slice(from).filter((r) => /\/(chat\/completions|messages|responses)$/.test(r.path));

const KINDS: [string, () => FakeProvider][] = [
  ["openai", () => openAiFake],
  ["anthropic-claude", () => anthropicFake],
  ["mistral", () => openAiFake],
  ["responses", () => openAiFake],
];

describe("tool calls through each wire format", () => {
  it.each(KINDS)("%s: a call whole, then streamed, then the result sent back reaches the model", async (slug, fakeOf) => {
    const { openai, client, user } = await scriptUser();
    const model = `${slug}/fake-model`;
    const ask: OpenAI.ChatCompletionMessageParam = { role: "user", content: '#tool=lookup{"query":"leaf colour"}' };

    const whole = await openai.chat.completions.create({ model, messages: [ask], tools: [LOOKUP, CLOCK] });
    const choice = whole.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toHaveLength(1);
    const call = choice?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({ id: expect.any(String), type: "function", function: { name: "lookup" } });
    expect(JSON.parse(call.function.arguments)).toEqual({ query: "leaf colour" });
    expect(whole.usage?.completion_tokens).toBeGreaterThan(0);

    const stream = await openai.chat.completions.create({
      model,
      messages: [ask],
      tools: [LOOKUP],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(deltas[0]).toEqual({ index: 0, id: expect.any(String), type: "function", function: { name: "lookup", arguments: "" } });
    expect(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined && d.function?.name === undefined)).toBe(true);
    // The arguments come in the pieces the provider streamed them in (the stand-ins: 8 characters), not at the end whole.
    expect(deltas).toHaveLength(4);
    expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? "").join(""))).toEqual({ query: "leaf colour" });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("");
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    const streamedUsage = chunks.at(-1)?.usage;
    expect(streamedUsage?.completion_tokens).toBeGreaterThan(0);

    // The next turn, as a client sends it: the answer's message as it came (content null), then the tool's result.
    const from = fakeOf().requests.length;
    const followUp = await openai.chat.completions.create({
      model,
      tools: [LOOKUP, CLOCK],
      messages: [
        ask,
        choice?.message as OpenAI.ChatCompletionMessageParam,
        { role: "tool", tool_call_id: call.id, content: "leaves are green" },
      ],
    });
    expect(followUp.choices[0]?.message.content).toBe("Tool results: leaves are green");
    expect(followUp.choices[0]?.finish_reason).toBe("stop");
    expect(followUp.choices[0]?.message.tool_calls).toBeUndefined();
    // The provider got the call and its result in its own shape.
    const sent = JSON.stringify(sentSince(fakeOf(), from)[0]?.body);
    expect(sent).toContain("leaves are green");
    expect(sent).toContain(call.id);

    expect(await holdsOf(user.id)).toBe(0);
    const totals = [whole.usage, streamedUsage, followUp.usage].reduce((sum, usage) => sum + (usage?.total_tokens ?? 0), 0);
    expect(await usedTokens(client)).toBe(totals);
  });

  it("two calls in one answer are indexed 0 and 1, whole and streamed (the stream's first output is a call)", async () => {
    const { openai } = await scriptUser();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: '#tool=clock #tool=lookup{"query":"x"}' }];
    const whole = await openai.chat.completions.create({ model: "openai/fake-model", messages, tools: [LOOKUP, CLOCK] });
    expect(whole.choices[0]?.message.tool_calls?.map((c) => (c as OpenAI.ChatCompletionMessageFunctionToolCall).function.name)).toEqual([
      "clock",
      "lookup",
    ]);
    const stream = await openai.chat.completions.create({ model: "openai/fake-model", messages, tools: [LOOKUP, CLOCK], stream: true });
    const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    for await (const chunk of stream) deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
    expect(deltas.filter((d) => d.id).map((d) => [d.index, d.function?.name])).toEqual([
      [0, "clock"],
      [1, "lookup"],
    ]);
    const args = (index: number) =>
      deltas
        .filter((d) => d.index === index)
        .map((d) => d.function?.arguments ?? "")
        .join("");
    expect([JSON.parse(args(0)), JSON.parse(args(1))]).toEqual([{}, { query: "x" }]);
  });

  it('tool_choice "none" offers no tools; "required", a named tool and parallel_tool_calls reach the provider', async () => {
    const { openai } = await scriptUser();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "#tool=lookup" }];
    let from = openAiFake.requests.length;
    const none = await openai.chat.completions.create({ model: "openai/fake-model", messages, tools: [LOOKUP], tool_choice: "none" });
    expect(none.choices[0]?.message).toMatchObject({ content: "Echo: #tool=lookup" });
    expect(none.choices[0]?.finish_reason).toBe("stop");
    const noneSent = sentSince(openAiFake, from)[0]?.body as Record<string, unknown>;
    expect(noneSent).not.toHaveProperty("tools");
    expect(noneSent).not.toHaveProperty("tool_choice");

    from = openAiFake.requests.length;
    await openai.chat.completions.create({ model: "openai/fake-model", messages, tools: [LOOKUP], tool_choice: "required" });
    await openai.chat.completions.create({
      model: "openai/fake-model",
      messages,
      tools: [LOOKUP, CLOCK],
      tool_choice: { type: "function", function: { name: "clock" } },
      parallel_tool_calls: false,
    });
    const [required, named] = sentSince(openAiFake, from).map((r) => r.body as Record<string, unknown>);
    expect(required?.tool_choice).toBe("required");
    expect(required?.tools).toHaveLength(1);
    expect(named?.tool_choice).toEqual({ type: "function", function: { name: "clock" } });
    expect(named?.parallel_tool_calls).toBe(false);

    const anthropicFrom = anthropicFake.requests.length;
    await openai.chat.completions.create({
      model: "anthropic-claude/fake-model",
      messages,
      tools: [LOOKUP, CLOCK],
      tool_choice: { type: "function", function: { name: "lookup" } },
      parallel_tool_calls: false,
    });
    const anthropicSent = sentSince(anthropicFake, anthropicFrom)[0]?.body as Record<string, unknown>;
    expect(anthropicSent.tool_choice).toEqual({ type: "tool", name: "lookup", disable_parallel_tool_use: true });

    // "none" in a conversation that holds tool calls: the tools are declared with the choice none (Anthropic refuses
    // tool_use blocks in a request that declares no tools), and the answer is text.
    const historyFrom = anthropicFake.requests.length;
    const afterCalls = await openai.chat.completions.create({
      model: "anthropic-claude/fake-model",
      tools: [LOOKUP],
      tool_choice: "none",
      messages: [
        { role: "user", content: "#tool=lookup" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "toolu_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "found it" },
      ],
    });
    expect(afterCalls.choices[0]?.message.content).toBe("Tool results: found it");
    const historySent = sentSince(anthropicFake, historyFrom)[0]?.body as Record<string, unknown>;
    expect(historySent.tools).toHaveLength(1);
    expect(historySent.tool_choice).toEqual({ type: "none" });
  });
});

describe("bad tools bodies", () => {
  const user1 = [{ role: "user", content: "hi" }];
  const callTurn = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
  };
  const cases: [string, unknown, string][] = [
    ["a tool without a name", { tools: [{ type: "function", function: {} }] }, "tools[0].function.name"],
    ["a name with a space", { tools: [{ type: "function", function: { name: "look up" } }] }, "tools[0].function.name"],
    ["a name too long", { tools: [{ type: "function", function: { name: "x".repeat(65) } }] }, "tools[0].function.name"],
    ["a name twice", { tools: [LOOKUP, LOOKUP] }, "tools[1].function.name"],
    ["a tool of another type", { tools: [{ type: "code_interpreter" }] }, "tools[0].type"],
    ["129 tools", { tools: Array.from({ length: 129 }, (_, i) => ({ type: "function", function: { name: `t${i}` } })) }, "tools"],
    [
      "parameters not an object",
      { tools: [{ type: "function", function: { name: "f", parameters: [1] } }] },
      "tools[0].function.parameters",
    ],
    [
      "parameters of type string",
      { tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] },
      "tools[0].function.parameters",
    ],
    [
      "parameters too big",
      { tools: [{ type: "function", function: { name: "f", parameters: { type: "object", description: "x".repeat(40_000) } } }] },
      "tools[0].function.parameters",
    ],
    [
      "parameters nested too deep",
      {
        tools: [
          {
            type: "function",
            function: { name: "f", parameters: JSON.parse(`${'{"type":"object","p":'.repeat(40)}1${"}".repeat(40)}`) },
          },
        ],
      },
      "tools[0].function.parameters",
    ],
    ["tool_choice without tools", { tool_choice: "auto" }, "tool_choice"],
    ["tool_choice naming another tool", { tools: [LOOKUP], tool_choice: { type: "function", function: { name: "nope" } } }, "tool_choice"],
    ["tool_choice a word OpenAI does not have", { tools: [LOOKUP], tool_choice: "always" }, "tool_choice"],
    ["parallel_tool_calls not a boolean", { parallel_tool_calls: "yes" }, "parallel_tool_calls"],
    ["the retired functions", { functions: [{ name: "f" }] }, "functions"],
    [
      "a tool message answering no call",
      { messages: [...user1, callTurn, { role: "tool", tool_call_id: "call_9", content: "r" }] },
      "messages[2].tool_call_id",
    ],
    ["a tool message without its call id", { messages: [...user1, callTurn, { role: "tool", content: "r" }] }, "messages[2].tool_call_id"],
    ["a call left unanswered", { messages: [...user1, callTurn, { role: "user", content: "and?" }] }, "messages[1].tool_calls"],
    [
      "a call answered twice",
      {
        messages: [
          ...user1,
          callTurn,
          { role: "tool", tool_call_id: "call_1", content: "r" },
          { role: "tool", tool_call_id: "call_1", content: "r" },
        ],
      },
      "messages[3].tool_call_id",
    ],
    ["tool_calls on a user message", { messages: [{ ...callTurn, role: "user", content: "hi" }] }, "messages[0].tool_calls"],
    ["an assistant message with neither", { messages: [...user1, { role: "assistant", content: null }] }, "messages[1].content"],
    [
      "a call's arguments not text",
      { messages: [...user1, { ...callTurn, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: {} } }] }] },
      "messages[1].tool_calls[0].function.arguments",
    ],
  ];

  it.each(cases.map(([name, body, param]) => [name, param, body] as const))(
    "%s: 400 invalid_request_error naming %s",
    async (_, param, body) => {
      const { token, user } = await scriptUser();
      const answer = await fetch(`${origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "openai/fake-model", messages: user1, ...(body as object) }),
      });
      const json = (await answer.json()) as { error: { type: string; param: string | null; message: string } };
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(json.error).toMatchObject({ type: "invalid_request_error", param });
      expect(await holdsOf(user.id)).toBe(0);
    },
  );

  it("a tool's parameters or a call's arguments nested thousands deep are a 400 or sent as text, never a 5xx", async () => {
    const { token, user } = await scriptUser();
    const post = (body: object) =>
      fetch(`${origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // Written by hand: JSON.stringify itself cannot write a value this deep.
    const deepObject = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const deepTools = await fetch(`${origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: `{"model":"openai/fake-model","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"deep","parameters":{"type":"object","properties":${deepObject}}}}]}`,
    });
    const refused = (await deepTools.json()) as { error: { type: string; param: string } };
    expect(deepTools.status, JSON.stringify(refused)).toBe(400);
    expect(refused.error).toMatchObject({ type: "invalid_request_error", param: "tools[0].function.parameters" });
    // A call's arguments are the caller's text: too deep to be JSON the model gets, they go back as written.
    const deepArguments = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const answered = await post({
      model: "openai/fake-model",
      messages: [
        ...user1,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "deep_1", type: "function", function: { name: "lookup", arguments: deepArguments } }],
        },
        { role: "tool", tool_call_id: "deep_1", content: "done" },
      ],
      tools: [LOOKUP],
    });
    expect(answered.status, await answered.clone().text()).toBe(200);
    expect(await holdsOf(user.id)).toBe(0);
  });

  it("the refusals say what to do", async () => {
    const { openai } = await scriptUser();
    const unanswered = await failureOf(
      openai.chat.completions.create({
        model: "openai/fake-model",
        messages: [{ role: "user", content: "hi" }, callTurn as OpenAI.ChatCompletionMessageParam],
      }),
    );
    expect(unanswered.message).toContain(OPENAI_MESSAGES.toolCallsUnanswered(["call_1"]));
    const functions = await failureOf(
      openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "hi" }], function_call: "auto" }),
    );
    expect(functions.message).toContain(OPENAI_MESSAGES.functionsRetired);
  });

  it("a fuzz of tools bodies: every answer is a 200 or a 400, never a 5xx", async () => {
    const { token } = await scriptUser();
    let seed = 54;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)] as T;
    const values: unknown[] = [
      null,
      0,
      -1,
      1.5,
      "",
      "x",
      "auto",
      "none",
      "required",
      true,
      [],
      {},
      [1],
      { type: "object" },
      "a".repeat(70),
    ];
    const anyValue = (): unknown =>
      random() < 0.3 ? { type: pick(["function", "object", 1]), function: pick([{}, { name: pick(values) }]) } : pick(values);
    const bodies = Array.from({ length: 60 }, () => ({
      model: "openai/fake-model",
      messages: pick([
        [{ role: "user", content: "hi" }],
        [
          { role: "user", content: "hi" },
          { role: "tool", tool_call_id: anyValue(), content: anyValue() },
        ],
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: anyValue(), tool_calls: pick([anyValue(), [anyValue()], [callTurn.tool_calls[0]]]) },
        ],
      ]),
      ...(random() < 0.8 ? { tools: pick([anyValue(), [anyValue()], [LOOKUP, anyValue()], [LOOKUP]]) } : {}),
      ...(random() < 0.5 ? { tool_choice: anyValue() } : {}),
      ...(random() < 0.3 ? { parallel_tool_calls: anyValue() } : {}),
    }));
    const statuses = new Map<number, number>();
    for (const body of bodies) {
      const answer = await fetch(`${origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await answer.text();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect([200, 400], JSON.stringify(body).slice(0, 300)).toContain(answer.status);
    }
    expect(statuses.get(400)).toBeGreaterThan(0);
  });
});

describe("POST /v1/embeddings dimensions", () => {
  it("are passed on where the model takes them, and a 400 naming dimensions where it refuses or ignores them", async () => {
    const { openai, user } = await scriptUser();
    await setEmbeddingModel(admin, "openai", "text-embedding-3-small");
    const from = openAiFake.requests.length;
    const short = await openai.embeddings.create({ model: "openai/text-embedding-3-small", input: ["a", "b"], dimensions: 256 });
    expect(short.data.map((d) => d.embedding.length)).toEqual([256, 256]);
    const asked = openAiFake.requests.slice(from).find((r) => r.path.endsWith("/embeddings"));
    expect((asked?.body as { dimensions?: number } | undefined)?.dimensions).toBe(256);
    // Without it, the model's own size.
    expect((await openai.embeddings.create({ model: "openai/text-embedding-3-small", input: "a" })).data[0]?.embedding).toHaveLength(1536);

    // Mistral's field is output_dimension: the AI SDK's provider names it, the stand-in honours it.
    await setEmbeddingModel(admin, "mistral", "codestral-embed");
    const mistral = await openai.embeddings.create({ model: "mistral/codestral-embed", input: "a", dimensions: 512 });
    expect(mistral.data[0]?.embedding).toHaveLength(512);

    for (const [slug, model] of [
      ["openai", "text-embedding-ada-002"], // OpenAI's provider refuses the size
      ["mistral", "mistral-embed"], // Mistral's refuses output_dimension
      ["local", "all-minilm"], // a server that ignores it answers its own size
    ]) {
      await setEmbeddingModel(admin, slug, model);
      const error = await failureOf(openai.embeddings.create({ model: `${slug}/${model}`, input: "a", dimensions: 256 }));
      expect(error.status, model).toBe(400);
      expect(error.error).toEqual({
        message: OPENAI_MESSAGES.dimensionsNotOffered(`${slug}/${model}`, 256),
        type: "invalid_request_error",
        param: "dimensions",
        code: null,
      });
      // The model's own size is fine.
      expect((await openai.embeddings.create({ model: `${slug}/${model}`, input: "a" })).data[0]?.embedding.length).toBeGreaterThan(256);
    }
    expect(await holdsOf(user.id)).toBe(0);
    await setEmbeddingModel(admin, "openai", "text-embedding-3-small");
  });

  it("a request whose later batch the provider refuses still spends what the batches before it were billed", async () => {
    const { openai, user, client } = await scriptUser();
    // Mistral takes at most 32 inputs a call: 40 inputs are two calls, and the stand-in refuses the second.
    await setEmbeddingModel(admin, "mistral", "mistral-embed");
    const inputs = [...Array.from({ length: 39 }, (_, i) => `passage number ${i}`), "the last one #error=400"];
    const before = await usedTokens(client);
    const error = await failureOf(openai.embeddings.create({ model: "mistral/mistral-embed", input: inputs }));
    // The caller's input, refused by the provider: the caller's 400, not a 502 the client would retry.
    expect(error.status).toBe(400);
    expect(await holdsOf(user.id)).toBe(0);
    const spent = (await usedTokens(client)) - before;
    expect(spent).toBeGreaterThan(0);
    // Whole, the first 32 cost this much: what the refused request spent.
    const firstBatch = await openai.embeddings.create({ model: "mistral/mistral-embed", input: inputs.slice(0, 32) });
    expect(spent).toBe(firstBatch.usage.total_tokens);
    await setEmbeddingModel(admin, "openai", "text-embedding-3-small");
  });
});
