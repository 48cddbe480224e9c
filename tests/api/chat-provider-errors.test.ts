// What a person sees when a provider fails (docs/product.md, Chat): a clear message with the status that says whose
// fault it is, the failed reply kept with its error, the user's message stored first; and a streamed conversation
// works with each of the four providers.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi, type ShownMessage, type StreamEvent } from "../../src/shared/contracts/chat.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import type { CallInput } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, FAKE_KEY, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

type ReplyBody = CallInput<typeof chatsApi.reply>["body"];

let t: TestApp;
let fake: FakeProvider;
let claude: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  claude = await startAnthropicFake();
  t = await buildTestApp({ env: { AI_FIRST_CHUNK_TIMEOUT_MS: "1500", AI_CHUNK_TIMEOUT_MS: "2000" } });
  ({ admin, user } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", fake);
  await pointPlatformAt(admin, "anthropic-claude", claude);
  await pointPlatformAt(admin, "deepseek", fake);
  await pointPlatformAt(admin, "mistral", fake);
  // Two broken copies of the OpenAI platform: a wrong key, and a server that is not there.
  for (const [slug, apiKey, baseUrl] of [
    ["wrong-key", "sk-wrong-key-000000", fake.url],
    ["nowhere", FAKE_KEY, "http://127.0.0.1:9/v1"],
  ] as const) {
    const res = await admin.call(aiPlatformsApi.create, {
      body: {
        name: slug,
        slug,
        kind: "openai",
        apiKey,
        baseUrl,
        settings: { models: ["fake-model"], temperature: 0.7, maxTokens: 1024, freeModels: ["fake-model"] },
      },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await claude?.close();
});

/** A reply in a new chat: its events, and the chat's stored messages afterwards. */
async function reply(body: ReplyBody, client = user) {
  const chat = await newChat(client);
  const res = await client.call(chatsApi.reply, { params: { id: chat.id }, body });
  const events = res.status === 200 ? parseEvents(res.response.body) : [];
  const stored = (await client.ok(chatsApi.messages, { params: { id: chat.id } })).items;
  return { res, events, stored, chatId: chat.id };
}
const errorOf = (events: StreamEvent[]) => events.find((e): e is Extract<StreamEvent, { type: "error" }> => e.type === "error");
const aiChat = (client: CookieClient, platformSlug: string, content: string, extra: { model?: string } = {}) =>
  client.call(chatsApi.aiChat, { body: { platformSlug, messages: [{ role: "user", content }], ...extra } });
const once = (platformSlug: string, content: string, extra: { model?: string } = {}) => aiChat(user, platformSlug, content, extra);
const chatReply = (client: CookieClient, id: number, content: string) => client.call(chatsApi.reply, { params: { id }, body: { content } });

describe("provider failures", () => {
  it("a wrong API key: 502 naming the key, the failed reply stored with its error after the user's message", async () => {
    const { res, events, stored } = await reply({ content: "hello with a bad key", platformSlug: "wrong-key" });
    expect(res.status).toBe(200);
    const error = errorOf(events);
    expect(error?.status).toBe(502);
    expect(error?.message).toMatch(/API key/);
    expect(error?.message).not.toContain("sk-wrong");
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "hello with a bad key", "complete"],
      ["assistant", "", "failed"],
    ]);
    expect(stored[1]?.error).toBe(error?.message);
    const direct = await once("wrong-key", "hello");
    expect(direct.status).toBe(502);
    expect(direct.error.message).toMatch(/API key/);
    // The same request with the right key works (the whole body as sent).
    expect((await once("openai", "hello")).response.json()).toEqual({ content: "Echo: hello" });
  });

  it("a rate limit: 429, with Retry-After on /api/ai/chat", async () => {
    const rateLimited = { status: 429, message: expect.stringMatching(/rate limit/i) };
    const { events, stored } = await reply({ content: "busy #error=429" });
    // Soft: the streamed and the non-streamed answer are two separate checks; report both.
    expect.soft(errorOf(events)).toMatchObject(rateLimited);
    expect(stored.at(-1)?.status).toBe("failed");
    const direct = await once("openai", "busy #error=429");
    expect({ status: direct.status, message: direct.error.message }).toMatchObject(rateLimited);
    expect(Number(direct.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("a model the provider does not know: 502 naming the model", async () => {
    const { events } = await reply({ content: "hi", model: "missing-model" });
    const error = errorOf(events);
    expect(error?.status).toBe(502);
    expect(error?.message).toContain('"missing-model"');
    const direct = await once("openai", "hi", { model: "missing-model" });
    expect(direct.status).toBe(502);
    expect(direct.error.message).toContain('"missing-model"');
  });

  it("a provider that cannot be reached: 503", async () => {
    const unreachable = { status: 503, message: "nowhere cannot be reached right now. Please try again later." };
    const { events, stored } = await reply({ content: "anyone there?", platformSlug: "nowhere" });
    expect(errorOf(events)).toMatchObject(unreachable);
    expect(stored.map((m) => m.status)).toEqual(["complete", "failed"]);
    const direct = await once("nowhere", "anyone there?");
    expect({ status: direct.status, message: direct.error.message }).toEqual(unreachable);
  });

  it("a provider that never starts answering: 504, and the user's message is stored while the provider is asked", async () => {
    const chat = await newChat(user);
    const asked = fake.requests.length;
    const pending = chatReply(user, chat.id, "wait for it #hang-start");
    for (let i = 0; i < 200 && fake.requests.length === asked; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.requests.length).toBe(asked + 1);
    // The provider has the request and has not answered: the user's message is stored meanwhile (issue 15:
    // the call starts while the rows are written; nothing is relayed before they commit).
    let whileAsking: ShownMessage[] = [];
    for (let i = 0; i < 100 && whileAsking.length < 2; i++) {
      whileAsking = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
      if (whileAsking.length < 2) await new Promise((r) => setTimeout(r, 20));
    }
    expect(whileAsking.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "wait for it #hang-start", "complete"],
      ["assistant", "", "streaming"],
    ]);
    const direct = await once("openai", "#hang-start");
    expect({ status: direct.status, message: direct.error.message }).toEqual({
      status: 504,
      message: "OpenAI took too long to answer. Please try again.",
    });
    // The streamed reply must end the same way, well within a few first-chunk timeouts (1.5 s here).
    const ended = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 6000))]);
    expect(ended, "the streamed reply was still waiting for the provider after 6 s").not.toBeNull();
    expect(errorOf(parseEvents(ended?.response.body ?? ""))).toMatchObject({ status: 504, message: expect.stringMatching(/too long/) });
  });

  it("a call we end before any text (the first-chunk wait, the whole-call timeout) spends its prompt's estimate; a provider's error before any text, nothing", async () => {
    const { client, user: me } = await registerAndSignIn(t.app);
    const used = async () => (await client.ok(usageApi.mine, {})).tokens.used;
    /** The prompt's estimate of the one hold `call` makes, read while it waits for the provider; then its answer. */
    const heldWhile = async <T>(call: Promise<T>) => {
      let estimate = 0;
      for (let i = 0; i < 300 && !estimate; i++) {
        const rows = await t.database.db.execute(sql`select prompt_estimate from ai_holds where user_id = ${me.id}`);
        estimate = Number((rows.rows[0] as { prompt_estimate: number } | undefined)?.prompt_estimate ?? 0);
        if (!estimate) await new Promise((r) => setTimeout(r, 10));
      }
      return { estimate, answer: await call };
    };
    // Refused before any text: the provider bills nothing, and nothing is counted (decision 028).
    const refused = await chatReply(client, (await newChat(client)).id, "no #error=500");
    expect(errorOf(parseEvents(refused.response.body))?.status).toBe(502);
    expect((await aiChat(client, "openai", "no #error=500")).status).toBe(502);
    expect(await used()).toBe(0);
    // The provider read the prompt and never answered; we ended the call: its prompt's estimate (decision 053).
    const chat = await newChat(client);
    const reply = await heldWhile(chatReply(client, chat.id, "read and never answered #hang-start"));
    expect(errorOf(parseEvents(reply.answer.response.body))?.status).toBe(504);
    expect(reply.estimate).toBeGreaterThan(0);
    expect(await used()).toBe(reply.estimate);
    const oneShot = await heldWhile(aiChat(client, "openai", "read and never answered #hang-start"));
    expect(oneShot.answer.status).toBe(504);
    expect(oneShot.estimate).toBeGreaterThan(0);
    expect(await used()).toBe(reply.estimate + oneShot.estimate);
  });

  it("a model the platform does not offer: 400 before anything is stored or sent", async () => {
    const asked = fake.requests.length;
    const { res, stored } = await reply({ content: "hi", model: "gpt-imaginary" });
    expect(res.status).toBe(400);
    expect(res.error.message).toContain('"gpt-imaginary"');
    expect(stored).toEqual([]);
    const direct = await once("openai", "hi", { model: "gpt-imaginary" });
    expect(direct.status).toBe(400);
    expect(fake.requests.length).toBe(asked);
    expect((await reply({ content: "hi", platformSlug: "no-such-platform" })).res.status).toBe(400);
  });
});

describe("every provider", () => {
  it("holds a streamed conversation with each of the four providers", async () => {
    for (const slug of ["openai", "anthropic-claude", "deepseek", "mistral"]) {
      const provider = slug === "anthropic-claude" ? claude : fake;
      const asked = provider.requests.length;
      const chat = await newChat(user, { aiPlatform: slug });
      const first = parseEvents((await chatReply(user, chat.id, `hello ${slug}`)).response.body);
      expect({ slug, text: textOf(first) }).toEqual({ slug, text: `Echo: hello ${slug}` });
      const second = parseEvents((await chatReply(user, chat.id, "and again")).response.body);
      expect({ slug, text: textOf(second) }).toEqual({ slug, text: "Echo: and again" });
      const done = second.at(-1);
      expect(done?.type === "done" && [done.assistantMessage.status, done.assistantMessage.platformSlug]).toEqual(["complete", slug]);
      // The provider was called in its own format, with the whole conversation.
      expect(provider.requests.length).toBe(asked + 2);
      const last = provider.requests.at(-1);
      expect(last?.path).toBe(slug === "anthropic-claude" ? "/v1/messages" : "/v1/chat/completions");
      const body = last?.body as { messages?: { role: string }[] } | undefined;
      const turns = (body?.messages ?? []).filter((m) => m.role !== "system");
      expect(turns.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    }
  });

  it("a wrong key on Anthropic is reported the same way as on OpenAI", async () => {
    const { res, events } = await reply({ content: "hi", platformSlug: "anthropic-claude" });
    expect(res.status).toBe(200);
    expect(errorOf(events)).toBeUndefined();
    const list = await admin.ok(aiPlatformsApi.list, {});
    const id = list.find((p) => p.slug === "anthropic-claude")?.id;
    if (id === undefined) throw new Error("no anthropic-claude platform");
    expect((await admin.call(aiPlatformsApi.update, { params: { id }, body: { apiKey: "sk-wrong-key-000000" } })).status).toBe(200);
    try {
      const error = errorOf((await reply({ content: "hi", platformSlug: "anthropic-claude" })).events);
      expect(error?.status).toBe(502);
      expect(error?.message).toMatch(/Anthropic Claude refused the API key/);
    } finally {
      await admin.call(aiPlatformsApi.update, { params: { id }, body: { apiKey: FAKE_KEY } });
    }
  });
});

describe("an OpenAI platform on the Responses API (decision 050)", () => {
  let responses: { id: number };
  beforeAll(async () => {
    for (const [slug, apiKey] of [
      ["responses", FAKE_KEY],
      ["responses-wrong-key", "sk-wrong-key-000000"],
    ] as const) {
      const res = await admin.call(aiPlatformsApi.create, {
        body: {
          name: slug,
          slug,
          kind: "openai",
          api: "responses",
          apiKey,
          baseUrl: fake.url,
          settings: {
            models: ["fake-model", "missing-model"],
            temperature: 0.7,
            maxTokens: 1024,
            freeModels: ["fake-model", "missing-model"],
          },
        },
      });
      expect(res.status, res.response.body).toBe(201);
      expect(res.data.api).toBe("responses");
      if (slug === "responses") responses = res.data;
    }
  });

  it("holds a streamed conversation over POST /v1/responses", async () => {
    const asked = fake.requests.length;
    const chat = await newChat(user, { aiPlatform: "responses" });
    const first = parseEvents((await chatReply(user, chat.id, "hello responses")).response.body);
    expect(textOf(first)).toBe("Echo: hello responses");
    const second = parseEvents((await chatReply(user, chat.id, "and again")).response.body);
    expect(textOf(second)).toBe("Echo: and again");
    const done = second.at(-1);
    expect(done?.type === "done" && done.assistantMessage).toMatchObject({ status: "complete", platformSlug: "responses" });
    expect(done?.type === "done" && done.assistantMessage.outputTokens).toBe(3);
    expect(fake.requests.length).toBe(asked + 2);
    const last = fake.requests.at(-1);
    expect(last?.path).toBe("/v1/responses");
    const input = (last?.body as { input?: { role?: string }[] } | undefined)?.input ?? [];
    expect(input.map((item) => item.role).filter((role) => role !== "system")).toEqual(["user", "assistant", "user"]);
    // The one-off chat call goes the same way.
    expect((await once("responses", "hello")).response.json()).toEqual({ content: "Echo: hello" });
    expect(fake.requests.at(-1)?.path).toBe("/v1/responses");
  });

  it("maps its failures as every provider's: a wrong key 502, a rate limit 429, a server error 502, an unknown model 502", async () => {
    const badKey = errorOf((await reply({ content: "hi", platformSlug: "responses-wrong-key" })).events);
    expect(badKey?.status).toBe(502);
    expect(badKey?.message).toMatch(/API key/);
    expect(badKey?.message).not.toContain("sk-wrong");
    const limited = await reply({ content: "busy #error=429", platformSlug: "responses" });
    expect(errorOf(limited.events)).toMatchObject({ status: 429, message: expect.stringMatching(/rate limit/i) });
    expect(limited.stored.at(-1)?.status).toBe("failed");
    const direct = await once("responses", "busy #error=429");
    expect(direct.status).toBe(429);
    expect(Number(direct.headers["retry-after"])).toBeGreaterThan(0);
    expect(errorOf((await reply({ content: "oops #error=500", platformSlug: "responses" })).events)?.status).toBe(502);
    const unknown = errorOf((await reply({ content: "hi", platformSlug: "responses", model: "missing-model" })).events);
    expect(unknown?.status).toBe(502);
    expect(unknown?.message).toContain('"missing-model"');
    // Back on Chat Completions, the same platform calls /chat/completions again.
    expect((await admin.ok(aiPlatformsApi.update, { params: { id: responses.id }, body: { api: "chat-completions" } })).api).toBe(
      "chat-completions",
    );
    await reply({ content: "plain again", platformSlug: "responses" });
    expect(fake.requests.at(-1)?.path).toBe("/v1/chat/completions");
  });
});

describe("with no platform set up at all", () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await buildTestApp();
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it("says so plainly (503) instead of answering, and the model picker list is empty", async () => {
    const { client } = await registerAndSignIn(fresh.app);
    const platforms = await client.call(aiPlatformsApi.forChat, {});
    expect(platforms.status).toBe(200);
    expect(platforms.data).toEqual([]);
    const { res, stored } = await reply({ content: "is anyone there?" }, client);
    expect(res.status).toBe(503);
    expect(res.error.message).toMatch(/^No AI platform is set up yet/);
    expect(res.error.message).toContain("Admin > AI Chat Settings");
    expect(stored).toEqual([]);
    const direct = await aiChat(client, "openai", "hi");
    expect(direct.status).toBe(503);
    expect(direct.error.message).toMatch(/^No AI platform is set up yet/);
  });
});
