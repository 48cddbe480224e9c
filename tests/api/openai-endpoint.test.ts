// Issue 35, decision 051: the OpenAI-compatible endpoint. The official `openai` client, pointed at the app listening on
// a real port with a personal token, lists the models the user may use, completes (whole and streamed) against the
// provider stand-ins of every kind, spends the allowance as a chat reply does, and gets OpenAI's errors with OpenAI's
// statuses: 401 (no, bad, expired, revoked token), 403 (scope), 404 (model), 429 (allowance, concurrency), 400 (bad
// bodies, never a 5xx). On PGlite and, in test:pg, PostgreSQL.
import { eq } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens } from "../../src/server/db/schema/index.js";
import { API_CONTENT_SECURITY_POLICY } from "../../src/server/plugins/security.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { OPENAI_MESSAGES } from "../../src/shared/contracts/openai.js";
import { platformSettingsApi, type UpdatePlatformSettingsBody } from "../../src/shared/contracts/platform-settings.js";
import { planAllowancesApi } from "../../src/shared/contracts/usage.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { FAKE_KEY, newChat, pointPlatformAt, setEmbeddingModel } from "../helpers/chat-setup.js";
import {
  failureOf,
  holdsOf as holdsOfUser,
  listenLocally,
  makeToken,
  scriptUser as scriptUserOf,
  usedTokens,
} from "../helpers/openai-client.js";

const MAX_RUNNING = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let openAiFake: FakeProvider;
let anthropicFake: FakeProvider;
let admin: CookieClient;
let origin: string;

beforeAll(async () => {
  [openAiFake, anthropicFake] = await Promise.all([startOpenAiCompatibleFake(), startAnthropicFake()]);
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: String(MAX_RUNNING) } });
  admin = (await registerAndSignIn(t.app)).client;
  for (const slug of ["openai", "deepseek", "mistral"]) await pointPlatformAt(admin, slug, openAiFake);
  await pointPlatformAt(admin, "anthropic-claude", anthropicFake);
  const local = await admin.call(aiPlatformsApi.create, {
    body: {
      name: "Local",
      slug: "local",
      kind: "openai-compatible",
      baseUrl: openAiFake.url,
      apiKey: FAKE_KEY,
      // premium-model: Early Access only, so a free user may neither see nor use it.
      settings: { models: ["fake-model", "premium-model"], freeModels: ["fake-model"], temperature: 0.7, maxTokens: 1024 },
    },
  });
  expect(local.status, local.response.body).toBe(201);
  origin = await listenLocally(t);
});
afterAll(async () => {
  await t?.close();
  await openAiFake?.close();
  await anthropicFake?.close();
});

const scriptUser = (scopes?: string[]) => scriptUserOf(t, origin, scopes);
const holdsOf = (userId: number) => holdsOfUser(t, userId);

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  for (const end = Date.now() + ms; ; await sleep(25)) {
    const value = await read();
    if (check(value) || Date.now() > end) return value;
  }
}

async function setFreeAllowance(monthlyTokens: number | null, messagesPerDay: number | null = null) {
  const res = await admin.call(planAllowancesApi.update, {
    body: { free: { monthlyTokens, messagesPerDay }, earlyAccess: { monthlyTokens: null, messagesPerDay: null } },
  });
  expect(res.status, res.response.body).toBe(200);
}
const saveSettings = (body: UpdatePlatformSettingsBody) => admin.call(platformSettingsApi.update, { body });
const reply = (client: CookieClient, id: number, content: string) => client.call(chatsApi.reply, { params: { id }, body: { content } });

const KINDS = ["openai", "anthropic-claude", "deepseek", "mistral", "local"];

describe("GET /v1/models", () => {
  it("lists exactly the models this user may use, as OpenAI's model objects; a plan-locked one is absent", async () => {
    const { openai } = await scriptUser();
    const models = [];
    for await (const model of openai.models.list()) models.push(model);
    const ids = models.map((model) => model.id).sort();
    expect(ids).toEqual(
      KINDS.flatMap((slug) => (slug === "local" ? ["local/fake-model"] : [`${slug}/fake-model`, `${slug}/missing-model`])).sort(),
    );
    for (const model of models) {
      expect(model).toEqual({ id: model.id, object: "model", created: expect.any(Number), owned_by: model.id.split("/")[0] });
    }
    expect(ids).not.toContain("local/premium-model");
  });

  it("with model selection off, lists the administrator's model alone", async () => {
    const { openai } = await scriptUser();
    const off = await saveSettings({ enableModelSelection: false, defaultModel: "deepseek/fake-model" });
    expect(off.status, off.response.body).toBe(200);
    try {
      const models = [];
      for await (const model of openai.models.list()) models.push(model.id);
      expect(models).toEqual(["deepseek/fake-model"]);
      expect(
        (await failureOf(openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "hi" }] })))
          .status,
      ).toBe(404);
    } finally {
      const on = await saveSettings({ enableModelSelection: true });
      expect(on.status, on.response.body).toBe(200);
    }
  });
});

describe("POST /v1/chat/completions", () => {
  it.each(KINDS)("answers whole and streamed through %s's stand-in, and counts what it spent like a chat reply", async (slug) => {
    const { openai, client, user } = await scriptUser();
    const model = `${slug}/fake-model`;
    const whole = await openai.chat.completions.create({
      model,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "hello there friend" },
      ],
      temperature: 0.3,
      max_tokens: 200,
      some_future_field: { ignored: true },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(whole).toMatchObject({
      object: "chat.completion",
      model,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant" } }],
    });
    expect(whole.id).toMatch(/^chatcmpl-/);
    expect(whole.choices[0]?.message.content).toBe("Echo: hello there friend");
    expect(whole.usage?.total_tokens).toBe((whole.usage?.prompt_tokens ?? 0) + (whole.usage?.completion_tokens ?? 0));
    expect(whole.usage?.completion_tokens).toBeGreaterThan(0);

    const stream = await openai.chat.completions.create({
      model,
      messages: [{ role: "user", content: [{ type: "text", text: "one two three four five" }] }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.model === model)).toBe(true);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Echo: one two three four five");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    const usage = last?.usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);

    // The month's usage holds exactly what the provider reported for both, and no hold is left.
    expect(await holdsOf(user.id)).toBe(0);
    expect(await usedTokens(client)).toBe((whole.usage?.total_tokens ?? 0) + (usage?.total_tokens ?? 0));
  });

  it("passes the stop sequences and the bounded length on, and a stream without include_usage has no usage chunk", async () => {
    const { openai } = await scriptUser();
    const before = openAiFake.requests.length;
    const stream = await openai.chat.completions.create({
      model: "openai/fake-model",
      messages: [{ role: "user", content: "stop here" }],
      stop: ["END"],
      max_completion_tokens: 999_999,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.usage === undefined && chunk.choices.length === 1)).toBe(true);
    const sent = openAiFake.requests.slice(before).find((r) => r.path.endsWith("/chat/completions"))?.body as Record<string, unknown>;
    expect(sent.stop).toEqual(["END"]);
    // The platform's most (1,024 here), whatever was asked.
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(1024);
  });

  it("404 model_not_found for an unknown model, a platform that does not exist, and a model the plan may not use", async () => {
    const { openai } = await scriptUser();
    for (const model of ["openai/gpt-nothing", "nowhere/fake-model", "local/premium-model", "openai"]) {
      const error = await failureOf(openai.chat.completions.create({ model, messages: [{ role: "user", content: "hi" }] }));
      expect(error, model).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error.code).toBe("model_not_found");
      expect(error.error).toEqual({
        message: OPENAI_MESSAGES.unknownModel(model),
        type: "invalid_request_error",
        param: "model",
        code: "model_not_found",
      });
    }
  });

  it("a provider failure is a 502 with a clear message; a whole-answer failure still settles its hold", async () => {
    const { openai, user } = await scriptUser();
    const error = await failureOf(
      openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "#error=500" }] }),
    );
    expect(error.status).toBe(502);
    expect(error.error).toMatchObject({ type: "api_error", code: "provider_error" });
    expect(error.message).toContain("had a problem answering");
    const streamed = await failureOf(
      openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "#error=500" }], stream: true }),
    );
    expect(streamed.status).toBe(502);
    expect(await holdsOf(user.id)).toBe(0);
  });

  it("a provider refusing the caller's request as written (400) is the caller's 400, which the client does not retry", async () => {
    const { user, token } = await scriptUser();
    let attempts = 0;
    const counting = new OpenAI({
      apiKey: token,
      baseURL: `${origin}/v1`,
      maxRetries: 2,
      fetch: (url, init) => {
        attempts += 1;
        return fetch(url, init);
      },
    });
    for (const stream of [false, true]) {
      attempts = 0;
      const error = await failureOf(
        counting.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "#error=400" }], stream }),
      );
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ type: "invalid_request_error" });
      expect(error.message).toContain("refused the request as sent");
      // A 5xx would have been tried twice more by the official client.
      expect(attempts).toBe(1);
    }
    expect(await holdsOf(user.id)).toBe(0);
  });
});

describe("a provider that stops mid-answer", () => {
  it("ends the stream with OpenAI's error event, which the client raises, and settles the hold with what was received", async () => {
    const { openai, user, client } = await scriptUser();
    const stream = await openai.chat.completions.create({
      model: "openai/fake-model",
      messages: [{ role: "user", content: "#cut" }],
      stream: true,
    });
    const texts: string[] = [];
    let failure: unknown = null;
    try {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? "");
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: "api_error" });
    expect(texts.join("")).not.toBe("");
    expect(await holdsOf(user.id)).toBe(0);
    // No usage was reported: the estimate of what was sent and received is counted, as for a chat reply cut short.
    expect(await usedTokens(client)).toBeGreaterThan(0);
  });
});

describe("the allowance and the concurrency limit", () => {
  it("429 insufficient_quota with retry-after once the month's tokens are spent (RateLimitError)", async () => {
    const { openai, client } = await scriptUser();
    await setFreeAllowance(5);
    try {
      await openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "spend it all now" }] });
      expect(await usedTokens(client)).toBeGreaterThanOrEqual(5);
      for (const stream of [false, true]) {
        const error = await failureOf(
          openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "again" }], stream }),
        );
        expect(error).toBeInstanceOf(OpenAI.RateLimitError);
        expect(error.error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota", param: null });
        expect(Number(error.headers?.get("retry-after"))).toBeGreaterThan(0);
      }
    } finally {
      await setFreeAllowance(null);
    }
  });

  it("a completion is one of the day's messages: the plan's messages-per-day limit holds on /v1 and in the chat", async () => {
    const { openai, client } = await scriptUser();
    await setFreeAllowance(null, 2);
    try {
      for (const content of ["one", "two"]) {
        const done = await openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content }] });
        expect(done.choices[0]?.message.content).toBe(`Echo: ${content}`);
      }
      const error = await failureOf(
        openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "three" }] }),
      );
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota" });
      // The chat counts the same day: its next message is refused too.
      const chat = await newChat(client);
      expect((await reply(client, chat.id, "from the chat")).status).toBe(429);
    } finally {
      await setFreeAllowance(null);
    }
  });

  it("a call the client leaves before any text still spends its prompt's estimate (the provider had it)", async () => {
    const { openai, client, user } = await scriptUser();
    const controller = new AbortController();
    const pending = openai.chat.completions
      .create(
        { model: "openai/fake-model", messages: [{ role: "user", content: "#hang-start a prompt the provider has read" }], stream: true },
        { signal: controller.signal },
      )
      .catch((error: unknown) => error);
    expect(
      await until(
        () => holdsOf(user.id),
        (n) => n === 1,
        3000,
      ),
    ).toBe(1);
    controller.abort();
    await pending;
    expect(
      await until(
        () => holdsOf(user.id),
        (n) => n === 0,
        3000,
      ),
    ).toBe(0);
    expect(await usedTokens(client)).toBeGreaterThan(0);
  });

  it(`429 rate_limit_exceeded with retry-after when ${MAX_RUNNING} calls already run; a client that leaves mid-stream settles its hold`, async () => {
    const { openai, client, user } = await scriptUser();
    const streams = await Promise.all(
      Array.from({ length: MAX_RUNNING }, () =>
        // `#hang`: one piece, then the provider says nothing more; only the client leaving can end these calls here.
        openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "#hang" }], stream: true }),
      ),
    );
    const readers = streams.map((stream) => stream[Symbol.asyncIterator]());
    // Each has begun: its first piece arrived.
    for (const reader of readers) expect((await reader.next()).done).toBe(false);
    expect(await holdsOf(user.id)).toBe(MAX_RUNNING);

    const error = await failureOf(
      openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "one more" }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    expect(error.headers?.get("retry-after")).toBe("5");
    // The chat counts them too (migration 0027): a reply's start is refused while they run, and nothing is stored.
    const chat = await newChat(client);
    const refusedReply = await reply(client, chat.id, "from the chat");
    expect(refusedReply.status).toBe(429);
    expect(refusedReply.error.message).toMatch(new RegExp(`at most ${MAX_RUNNING} AI replies and course generations running at once`));
    expect((await client.ok(chatsApi.messages, { params: { id: chat.id } })).items).toEqual([]);

    // The clients leave mid-answer: the provider's calls are aborted at once (not after the 30 s stall limit), and the
    // holds are settled with what was received.
    for (const stream of streams) stream.controller.abort();
    expect(
      await until(
        () => holdsOf(user.id),
        (n) => n === 0,
        3000,
      ),
    ).toBe(0);
    expect(await usedTokens(client)).toBeGreaterThan(0);
    // And a new call is admitted again.
    const after = await openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "back" }] });
    expect(after.choices[0]?.message.content).toBe("Echo: back");
  });
});

describe("who may call", () => {
  it("401 for no token, a cookie alone, a bad token, an expired one and a revoked one (AuthenticationError)", async () => {
    const { client, token, tokenId, openai } = await scriptUser();
    expect((await openai.models.list()).data.length).toBeGreaterThan(0);
    const raw = (headers: Record<string, string>) => fetch(`${origin}/v1/models`, { headers });
    const signedOut: Record<string, string>[] = [{}, { cookie: client.sessionCookie ?? "" }, { authorization: "Bearer " }];
    for (const headers of signedOut) {
      const answer = await raw(headers);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
      // Data, never a page: the API's headers, not a page's.
      expect(answer.headers.get("content-security-policy")).toBe(API_CONTENT_SECURITY_POLICY);
      expect(answer.headers.get("permissions-policy")).toBeNull();
    }
    const bad = new OpenAI({ apiKey: "lum_not-a-token", baseURL: `${origin}/v1`, maxRetries: 0 });
    expect(await failureOf(bad.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);

    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, tokenId));
    const expired = await failureOf(
      openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(expired).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(expired.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });

    const fresh = await makeToken(client, ["chat", "models"]);
    const again = new OpenAI({ apiKey: fresh.token, baseURL: `${origin}/v1`, maxRetries: 0 });
    expect((await again.models.list()).data.length).toBeGreaterThan(0);
    expect((await client.call(tokensApi.revoke, { params: { id: fresh.id } })).status).toBe(204);
    expect(await failureOf(again.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(token).not.toBe(fresh.token);
  });

  it("403 for a token without the scope (PermissionDeniedError): courses:read cannot chat, chat cannot list models", async () => {
    const reader = await scriptUser(["courses:read"]);
    for (const call of [
      () => reader.openai.chat.completions.create({ model: "openai/fake-model", messages: [{ role: "user", content: "hi" }] }),
      () => reader.openai.embeddings.create({ model: "openai/text-embedding-3-small", input: "hi" }),
      () => reader.openai.models.list(),
    ]) {
      const error = await failureOf(call());
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error.error).toMatchObject({ type: "permission_error", code: "insufficient_permissions" });
    }
    const chatOnly = await scriptUser(["chat"]);
    expect(await failureOf(chatOnly.openai.models.list())).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const answer = await chatOnly.openai.chat.completions.create({
      model: "openai/fake-model",
      messages: [{ role: "user", content: "fine" }],
    });
    expect(answer.choices[0]?.message.content).toBe("Echo: fine");
  });
});

describe("bad bodies", () => {
  it("400 invalid_request_error in OpenAI's shape, naming the parameter, and never a 5xx", async () => {
    const { token, user } = await scriptUser();
    const post = (body: string) =>
      fetch(`${origin}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body,
      });
    const user1 = [{ role: "user", content: "hi" }];
    const cases: [unknown, string | null][] = [
      [{ model: "openai/fake-model", messages: [] }, "messages"],
      [{ model: "openai/fake-model" }, "messages"],
      [{ messages: user1 }, "model"],
      [{ model: 42, messages: user1 }, "model"],
      [{ model: "openai/fake-model", messages: "hi" }, "messages"],
      [{ model: "openai/fake-model", messages: [{ role: "user", content: 5 }] }, "messages[0].content"],
      [{ model: "openai/fake-model", messages: [{ role: "robot", content: "x" }] }, "messages[0].role"],
      [{ model: "openai/fake-model", messages: [...user1, { role: "tool", content: "x" }] }, "messages[1].tool_call_id"],
      [{ model: "openai/fake-model", messages: [{ role: "system", content: "only a system prompt" }] }, "messages"],
      [{ model: "openai/fake-model", messages: user1, temperature: "hot" }, "temperature"],
      [{ model: "openai/fake-model", messages: user1, temperature: 1e308 }, "temperature"],
      [{ model: "openai/fake-model", messages: user1, max_tokens: 1e21 }, "max_tokens"],
      [{ model: "openai/fake-model", messages: user1, max_tokens: -1 }, "max_tokens"],
      [{ model: "openai/fake-model", messages: user1, max_completion_tokens: 1.5 }, "max_completion_tokens"],
      [{ model: "openai/fake-model", messages: user1, stop: [1, 2] }, "stop"],
      [{ model: "openai/fake-model", messages: user1, stream: "yes" }, "stream"],
      [{ model: "openai/fake-model", messages: user1, n: 3 }, "n"],
      [{ model: "openai/fake-model", messages: user1, functions: [{ name: "f" }] }, "functions"],
      [
        {
          model: "openai/fake-model",
          messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://example.com/a.png" } }] }],
        },
        "messages[0].content[0].image_url",
      ],
      [[1, 2, 3], null],
      ["just text", null],
    ];
    const wrong: string[] = [];
    for (const [body, param] of cases) {
      const answer = await post(JSON.stringify(body));
      const json = (await answer.json()) as { error?: { type: string; param: string | null; message: string } };
      if (answer.status !== 400 || json.error?.type !== "invalid_request_error" || json.error.param !== param || !json.error.message)
        wrong.push(`${JSON.stringify(body).slice(0, 80)}: ${answer.status} ${JSON.stringify(json)}`);
    }
    const notJson = await post("{ not json");
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    expect(wrong).toEqual([]);
    const functions = await post(JSON.stringify({ model: "openai/fake-model", messages: user1, function_call: "auto" }));
    expect(((await functions.json()) as { error: { message: string } }).error.message).toContain(OPENAI_MESSAGES.functionsRetired);
    // Nothing was claimed for any of them.
    expect(await holdsOf(user.id)).toBe(0);
  });

  it("an image as a data: URL goes to a model that reads images, and is a clear 400 for one that does not", async () => {
    const { openai } = await scriptUser();
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    const error = await failureOf(
      openai.chat.completions.create({
        model: "openai/fake-model",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
            ],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain("fake-model");
  });
});

describe("POST /v1/embeddings", () => {
  it("404 with a clear message while no embedding model is set up; then floats and base64 from the stand-in", async () => {
    const { openai, client, user } = await scriptUser();
    const none = await failureOf(openai.embeddings.create({ model: "openai/text-embedding-3-small", input: "hello" }));
    expect(none).toBeInstanceOf(OpenAI.NotFoundError);
    expect(none.error).toMatchObject({ message: OPENAI_MESSAGES.noEmbeddingModel, code: "model_not_found" });

    await setEmbeddingModel(admin, "openai");
    const models = [];
    for await (const model of openai.models.list()) models.push(model.id);
    expect(models).toContain("openai/text-embedding-3-small");

    const floats = await openai.embeddings.create({
      model: "openai/text-embedding-3-small",
      input: ["cells divide", "stars shine"],
      encoding_format: "float",
    });
    expect(floats.object).toBe("list");
    expect(floats.data.map((d) => [d.object, d.index, d.embedding.length])).toEqual([
      ["embedding", 0, 1536],
      ["embedding", 1, 1536],
    ]);
    expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
    // The client asks base64 by default and decodes it: the same vectors.
    const decoded = await openai.embeddings.create({ model: "openai/text-embedding-3-small", input: ["cells divide", "stars shine"] });
    for (const [i, d] of decoded.data.entries()) {
      expect(d.embedding.length).toBe(1536);
      for (const [at, value] of d.embedding.entries()) expect(value).toBeCloseTo(floats.data[i]?.embedding[at] ?? Number.NaN, 6);
    }
    const raw = await fetch(`${origin}/v1/embeddings`, {
      method: "POST",
      headers: { authorization: `Bearer ${(await makeToken(client, ["chat"])).token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "openai/text-embedding-3-small", input: "cells", encoding_format: "base64" }),
    });
    const rawJson = (await raw.json()) as { data: { embedding: unknown }[]; usage: { total_tokens: number } };
    expect(typeof rawJson.data[0]?.embedding).toBe("string");

    expect((await failureOf(openai.embeddings.create({ model: "openai/no-such-model", input: "x" }))).status).toBe(404);
    expect((await failureOf(openai.embeddings.create({ model: "openai/text-embedding-3-small", input: "" }))).status).toBe(400);
    expect(await holdsOf(user.id)).toBe(0);
    expect(await usedTokens(client)).toBe(floats.usage.total_tokens + decoded.usage.total_tokens + rawJson.usage.total_tokens);
  });

  it("a model of the other kind is a 400 saying which it is (OpenAI's 'not a chat model'), not a model that does not exist", async () => {
    // Decision 061: the embedding model /v1/models lists, sent to chat; a chat model sent to embeddings.
    await setEmbeddingModel(admin, "openai");
    const { openai, client } = await scriptUser();
    const before = await usedTokens(client);
    const chat = await failureOf(
      openai.chat.completions.create({ model: "openai/text-embedding-3-small", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
    expect(chat.error).toEqual({
      message: OPENAI_MESSAGES.notAChatModel("openai/text-embedding-3-small"),
      type: "invalid_request_error",
      param: "model",
      code: null,
    });
    const streamed = await failureOf(
      openai.chat.completions.create({ model: "openai/text-embedding-3-small", messages: [{ role: "user", content: "hi" }], stream: true }),
    );
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    const embed = await failureOf(openai.embeddings.create({ model: "openai/fake-model", input: "x" }));
    expect(embed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(embed.error).toMatchObject({ message: OPENAI_MESSAGES.notAnEmbeddingModel("openai/fake-model"), param: "model" });
    // Refused: a model of neither kind is still the 404 that says nothing of what exists.
    const unknown = await failureOf(
      openai.chat.completions.create({ model: "openai/nothing", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await usedTokens(client)).toBe(before);
  });
});
