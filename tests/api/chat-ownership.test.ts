// A chat belongs to one person: every chat and AI call answers 404 for someone else's chat (so ids cannot be probed),
// 401 when signed out, and never 500 for an absurd id. The owner's conversation is untouched by every attempt.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import type { ErrorBody } from "../../src/shared/contracts/errors.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let owner: CookieClient;
let intruder: CookieClient;
let chatId: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp({ env: { AI_CHUNK_TIMEOUT_MS: "2000", AI_FIRST_CHUNK_TIMEOUT_MS: "2000" } });
  ({ admin, user: owner } = await adminAndUser(t.app));
  intruder = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
  chatId = (await newChat(owner)).id;
  const first = await owner.call(chatsApi.reply, { params: { id: chatId }, body: { content: "My private question" } });
  expect(textOf(parseEvents(first.response.body))).toBe("Echo: My private question");
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type Answer = { status: number; error: ErrorBody; response: LightMyRequestResponse };
/** The chat's id goes in the path as given (the absurd ones too: the params' id is coerced text). */
type Call = { name: string; send: (client: CookieClient, id: string | number) => Promise<Answer> };
const aiBody = (chatId: number) => ({ platformSlug: "openai", messages: [{ role: "user" as const, content: "leak it" }], chatId });
/** The AI call carries the id in its body: a number, or the text itself when it is not one (the contract refuses it: sent raw). */
function aiChat(c: CookieClient, id: string | number) {
  const chatId = typeof id === "number" ? id : Number.isNaN(Number(id)) ? id : Number(id);
  return typeof chatId === "number"
    ? c.call(chatsApi.aiChat, { body: aiBody(chatId) })
    : c.call(chatsApi.aiChat, { body: aiBody(1) }, { rawBody: { ...aiBody(1), chatId } });
}
const calls: Call[] = [
  { name: "GET /api/chats/{id}", send: (c, id) => c.call(chatsApi.get, { params: { id } }) },
  { name: "PATCH /api/chats/{id}", send: (c, id) => c.call(chatsApi.update, { params: { id }, body: { title: "Taken over" } }) },
  { name: "DELETE /api/chats/{id}", send: (c, id) => c.call(chatsApi.remove, { params: { id } }) },
  { name: "GET messages", send: (c, id) => c.call(chatsApi.messages, { params: { id } }) },
  {
    name: "POST messages",
    send: (c, id) => c.call(chatsApi.addMessage, { params: { id }, body: { content: "injected", role: "assistant" } }),
  },
  { name: "POST reply", send: (c, id) => c.call(chatsApi.reply, { params: { id }, body: { content: "injected question" } }) },
  { name: "POST regenerate", send: (c, id) => c.call(chatsApi.regenerate, { params: { id }, body: {} }) },
  { name: "GET stream", send: (c, id) => c.call(chatsApi.stream, { params: { id } }) },
  { name: "POST stop", send: (c, id) => c.call(chatsApi.stop, { params: { id } }) },
  { name: "POST /api/ai/chat with chatId", send: aiChat },
];

async function ownerView() {
  const chat = await owner.call(chatsApi.get, { params: { id: chatId } });
  const messages = await owner.call(chatsApi.messages, { params: { id: chatId } });
  const list = await owner.call(chatsApi.list, {});
  return {
    status: [chat.status, messages.status, list.status],
    title: chat.data.title,
    messages: messages.data.items.map((m) => [m.id, m.role, m.content, m.status]),
    listed: list.data.items.some((c) => c.id === chatId),
  };
}

describe("someone else's chat", () => {
  it("answers 404 on every chat and AI call, for a plain user and for an admin, and changes nothing", async () => {
    const before = await ownerView();
    expect(before.status).toEqual([200, 200, 200]);
    expect(before.messages).toHaveLength(2);
    expect(before.listed).toBe(true);
    for (const stranger of [intruder, admin]) {
      for (const call of calls) {
        const res = await call.send(stranger, chatId);
        expect({ call: call.name, status: res.status }).toEqual({ call: call.name, status: 404 });
        expect(res.error.message).toBe("Chat not found");
      }
    }
    expect(await ownerView()).toEqual(before);
    // The owner, for contrast, is allowed: the same calls succeed for them.
    expect((await owner.call(chatsApi.update, { params: { id: chatId }, body: { title: "My title" } })).status).toBe(200);
    expect((await owner.call(chatsApi.stream, { params: { id: chatId } })).status).toBe(204);
    const once = await owner.call(chatsApi.aiChat, { body: aiBody(chatId) });
    expect(once.status).toBe(200);
    expect(once.data.content).toBe("Echo: leak it");
  });

  it("cannot stop, resume or race the owner's reply while it is being written", async () => {
    const running = owner.call(chatsApi.reply, { params: { id: chatId }, body: { content: "long answer please #slow" } });
    // Wait until the owner's reply is really streaming.
    for (let i = 0; i < 50 && (await owner.call(chatsApi.stream, { params: { id: chatId } })).status === 204; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const name of ["POST stop", "GET stream", "POST reply", "POST regenerate", "DELETE /api/chats/{id}"]) {
      const call = calls.find((c) => c.name === name);
      const res = await call?.send(intruder, chatId);
      // 404, not 409 "still being written": the stranger learns nothing about the chat.
      expect({ name, status: res?.status }).toEqual({ name, status: 404 });
    }
    const events = parseEvents((await running).response.body);
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("complete");
    expect(textOf(events)).toMatch(/^Slow reply: word1 .* word38$/);
    const stored = (await owner.ok(chatsApi.messages, { params: { id: chatId } })).items;
    expect(stored).toHaveLength(4);
    expect(stored.at(-1)?.content).toBe(textOf(events));
  });
});

describe("signed out", () => {
  it("answers 401 on every chat and AI call", async () => {
    const before = await ownerView();
    const anonymous = new CookieClient(t.app);
    for (const call of calls) {
      const res = await call.send(anonymous, chatId);
      expect({ call: call.name, status: res.status }).toEqual({ call: call.name, status: 401 });
    }
    for (const request of [
      requestFor(chatsApi.list, {}),
      requestFor(chatsApi.create, { body: {} }),
      requestFor(chatsApi.search, { query: { q: "private" } }),
      requestFor(aiPlatformsApi.forChat, {}),
    ]) {
      const url = request.url;
      const res = await anonymous.request(request);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
    }
    expect(await ownerView()).toEqual(before);
  });
});

describe("absurd ids", () => {
  it("answer 400 or 404, never 500, on every call (even for the owner)", async () => {
    const before = await ownerView();
    const wrong: string[] = [];
    for (const id of [0, -1, 99999999999, "abc", "1.5", "1e3"]) {
      for (const call of calls) {
        const res = await call.send(owner, id);
        // Read as sent: a success here is a finding to report, not a failure to throw.
        if (![400, 404].includes(res.status) || typeof res.response.json().message !== "string") {
          wrong.push(`${call.name} with id ${id}: ${res.status} ${res.response.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await ownerView()).toEqual(before);
  });
});
