// Decision 057: a reply's provider request leaves only once its start is stored (`start_reply`: the allowance's claim
// and hold, the chat's checks, the rows), so a start refused there never reaches the provider and the operator pays
// for no refused reply. Parallel sends, edits and regenerates against each refusal `start_reply` can give (the day's
// messages, replies running at once, tokens held, a reply already being written, the leaf shown moved), counting what
// the provider stand-in received. On PGlite and PostgreSQL.
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompletionPart, streamCompletion } from "../../src/server/ai/generate.js";
import { languageModelFor, type ProviderAccess } from "../../src/server/ai/language-model.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { planAllowancesApi } from "../../src/shared/contracts/usage.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { FAKE_KEY, newChat, pointPlatformAt } from "../helpers/chat-setup.js";

const MAX_RUNNING = 3;
const UNLIMITED = { monthlyTokens: null, messagesPerDay: null };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let fake: FakeProvider;
let anthropicFake: FakeProvider;
let admin: CookieClient;
let base: string;
const open: AbortController[] = [];

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  anthropicFake = await startAnthropicFake();
  // A long first-chunk wait: a refused reply's call is not ended by it before the count.
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: String(MAX_RUNNING), AI_FIRST_CHUNK_TIMEOUT_MS: "60000" } });
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  base = await t.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await t?.close();
  await fake?.close();
  await anthropicFake?.close();
});

async function setFreeAllowance(allowance: { monthlyTokens: number | null; messagesPerDay: number | null }) {
  const res = await admin.call(planAllowancesApi.update, { body: { free: allowance, earlyAccess: UNLIMITED } });
  expect(res.status).toBe(200);
}

const replyTo = (id: number, content: string) => requestFor(chatsApi.reply, { params: { id }, body: { content } });
const editOf = (id: number, messageId: number, content: string) =>
  requestFor(chatsApi.editMessage, { params: { id, messageId }, body: { content } });
const userMessageOf = async (client: CookieClient, id: number) =>
  (await client.ok(chatsApi.messages, { params: { id } })).items.find((m) => m.role === "user");

/**
 * The status of a reply, an edit or a regenerate asked over a real connection; a reply that starts is left running
 * (its stream is not read), so `#hang` keeps it running until Stop. The request is the contract's (`requestFor`), sent by
 * fetch.
 */
async function started(client: CookieClient, request: InjectOptions): Promise<number> {
  const { method, url, payload } = request;
  if (typeof url !== "string") throw new Error("a request with a path was expected");
  const controller = new AbortController();
  open.push(controller);
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { "content-type": "application/json", cookie: client.sessionCookie ?? "" },
    body: JSON.stringify(payload),
    signal: controller.signal,
  });
  void res.body?.cancel().catch(() => {});
  return res.status;
}

/**
 * The chat requests the stand-in received whose conversation names `marker`, counted once no more can come: a refused
 * start's request, had it left, was on the wire before its refusal was answered.
 */
async function providerAsked(marker: string): Promise<number> {
  await sleep(300);
  return fake.requests.filter((r) => r.path.startsWith("/v1/chat/completions") && r.rawBody.includes(marker)).length;
}

async function stopAll(client: CookieClient, chatIds: number[]) {
  for (const id of chatIds) expect((await client.call(chatsApi.stop, { params: { id } })).status).toBe(200);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("a refused reply never reaches the provider", () => {
  it("four parallel sends against 2 messages a day: two are answered and asked, two get 429 and are never asked", async () => {
    await setFreeAllowance({ monthlyTokens: null, messagesPerDay: 2 });
    try {
      const { client } = await registerAndSignIn(t.app);
      const chats = await Promise.all(Array.from({ length: 4 }, () => newChat(client)));
      const statuses = await Promise.all(chats.map((chat, i) => started(client, replyTo(chat.id, `daily ${i} #day-limit`))));
      expect(statuses.sort()).toEqual([200, 200, 429, 429]);
      expect(await providerAsked("#day-limit")).toBe(2);
      // The day's two messages are spent: an edit is refused the same way, before anything is asked.
      const answered = [];
      for (const chat of chats) {
        const message = await userMessageOf(client, chat.id);
        if (message) answered.push({ chat: chat.id, message: message.id });
      }
      expect(answered).toHaveLength(2);
      const [first] = answered;
      if (!first) throw new Error("no answered chat");
      const edit = await started(client, editOf(first.chat, first.message, "edited #day-limit-edit"));
      expect(edit).toBe(429);
      expect(await providerAsked("#day-limit-edit")).toBe(0);
    } finally {
      await setFreeAllowance(UNLIMITED);
    }
  });

  it(`five parallel sends with ${MAX_RUNNING} replies allowed at once: ${MAX_RUNNING} start and are asked, two get 429 and are never asked`, async () => {
    const { client } = await registerAndSignIn(t.app);
    const chats = await Promise.all(Array.from({ length: 5 }, () => newChat(client)));
    const statuses = await Promise.all(chats.map((chat, i) => started(client, replyTo(chat.id, `running ${i} #max-running #hang`))));
    expect(count(statuses, 200)).toBe(MAX_RUNNING);
    expect(count(statuses, 429)).toBe(2);
    expect(await providerAsked("#max-running")).toBe(MAX_RUNNING);
    await stopAll(
      client,
      chats.filter((_, i) => statuses[i] === 200).map((c) => c.id),
    );
  });

  it("four parallel sends against 30 tokens a month: the one allowed is asked, the three told to wait for it are not", async () => {
    await setFreeAllowance({ monthlyTokens: 30, messagesPerDay: null });
    try {
      const { client } = await registerAndSignIn(t.app);
      const chats = await Promise.all(Array.from({ length: 4 }, () => newChat(client)));
      const statuses = await Promise.all(chats.map((chat, i) => started(client, replyTo(chat.id, `held ${i} #tokens-held #hang`))));
      expect(statuses.sort()).toEqual([200, 429, 429, 429]);
      expect(await providerAsked("#tokens-held")).toBe(1);
      await stopAll(
        client,
        chats.filter((_, i) => statuses[i] === 200).map((c) => c.id),
      );
    } finally {
      await setFreeAllowance(UNLIMITED);
    }
  });

  it("four parallel sends in one chat: one reply is written and asked, three get 409 and are never asked", async () => {
    const { client } = await registerAndSignIn(t.app);
    const chat = await newChat(client);
    const statuses = await Promise.all([0, 1, 2, 3].map((i) => started(client, replyTo(chat.id, `same chat ${i} #one-chat #hang`))));
    expect(statuses.sort()).toEqual([200, 409, 409, 409]);
    expect(await providerAsked("#one-chat")).toBe(1);
    await stopAll(client, [chat.id]);
  });

  it("parallel regenerates and parallel edits of one chat: one of each is asked, the ones refused with 409 are not", async () => {
    const { client } = await registerAndSignIn(t.app);
    const chat = await newChat(client);
    // Every reply of this chat answers its one user message, so each stays running (#hang) until Stop.
    expect(await started(client, replyTo(chat.id, "to answer again #again #hang"))).toBe(200);
    await stopAll(client, [chat.id]);
    const askedBefore = await providerAsked("#again");
    expect(askedBefore).toBe(1);

    const regenerates = await Promise.all(
      [0, 1, 2].map(() => started(client, requestFor(chatsApi.regenerate, { params: { id: chat.id }, body: {} }))),
    );
    expect(regenerates.sort()).toEqual([200, 409, 409]);
    expect((await providerAsked("#again")) - askedBefore).toBe(1);
    await stopAll(client, [chat.id]);

    const userMessage = await userMessageOf(client, chat.id);
    if (!userMessage) throw new Error("no user message");
    const edits = await Promise.all([0, 1, 2].map((i) => started(client, editOf(chat.id, userMessage.id, `edited ${i} #edits #hang`))));

    expect(edits.sort()).toEqual([200, 409, 409]);
    expect(await providerAsked("#edits")).toBe(1);
    await stopAll(client, [chat.id]);
  });
});

/** Every kind of platform, as `languageModelFor` makes its model for the app (decision 057 relies on its `fetch`). */
const KINDS: { kind: ProviderAccess["kind"]; api?: ProviderAccess["api"]; fake: () => FakeProvider }[] = [
  { kind: "openai", fake: () => fake },
  { kind: "openai", api: "responses", fake: () => fake },
  { kind: "anthropic", fake: () => anthropicFake },
  { kind: "deepseek", fake: () => fake },
  { kind: "mistral", fake: () => fake },
  { kind: "openai-compatible", fake: () => fake },
];

describe("every kind of provider holds a request until its start is stored", () => {
  for (const { kind, api, fake: fakeOf } of KINDS) {
    it(`${kind}${api ? ` (${api})` : ""}: nothing leaves before the start, the request once it is stored, none when it is refused`, async () => {
      const provider = fakeOf();
      const model = languageModelFor({ kind, api, slug: `held-${kind}`, apiKey: FAKE_KEY, baseUrl: provider.url }, "fake-model");
      const ask = (marker: string, sendAfter: Promise<unknown>) => {
        const parts = streamCompletion({
          model,
          messages: [{ role: "user", content: `held ${marker}` }],
          maxOutputTokens: 50,
          abortSignal: new AbortController().signal,
          chunkMs: 10_000,
          sendAfter,
        });
        return (async () => {
          const got: CompletionPart[] = [];
          for await (const part of parts) got.push(part);
          return got;
        })();
      };
      const received = (marker: string) => provider.requests.filter((r) => r.rawBody.includes(marker)).length;
      const marker = `#held-${kind}-${api ?? "default"}`;

      let store = () => {};
      const stored = new Promise<void>((resolve) => {
        store = resolve;
      });
      const answer = ask(marker, stored);
      await sleep(300);
      expect(received(marker)).toBe(0);
      store();
      const parts = await answer;
      expect(received(marker)).toBe(1);
      expect(parts.filter((p) => p.type === "text").length).toBeGreaterThan(0);

      const refusal = new Error("refused by start_reply");
      const rejected = Promise.reject(refusal);
      rejected.catch(() => {});
      const refused = await ask(`${marker}-refused`, rejected);
      expect(refused.at(-1)?.type).toBe("error");
      await sleep(100);
      expect(received(`${marker}-refused`)).toBe(0);
    });
  }
});
