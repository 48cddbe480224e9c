// A chat belongs to one person: every chat and AI call answers 404 for someone else's chat (so ids cannot be probed),
// 401 when signed out, and never 500 for an absurd id. The owner's conversation is untouched by every attempt.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
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
  const first = await owner.post(`/api/chats/${chatId}/reply`, { content: "My private question" });
  expect(textOf(parseEvents(first.body))).toBe("Echo: My private question");
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type Call = { name: string; send: (client: CookieClient, id: string | number) => Promise<LightMyRequestResponse> };
const aiBody = (id: unknown) => ({ platformSlug: "openai", messages: [{ role: "user", content: "leak it" }], chatId: id });
const calls: Call[] = [
  { name: "GET /api/chats/{id}", send: (c, id) => c.get(`/api/chats/${id}`) },
  { name: "PATCH /api/chats/{id}", send: (c, id) => c.patch(`/api/chats/${id}`, { title: "Taken over" }) },
  { name: "DELETE /api/chats/{id}", send: (c, id) => c.request({ method: "DELETE", url: `/api/chats/${id}` }) },
  { name: "GET messages", send: (c, id) => c.get(`/api/chats/${id}/messages`) },
  { name: "POST messages", send: (c, id) => c.post(`/api/chats/${id}/messages`, { content: "injected", role: "assistant" }) },
  { name: "POST reply", send: (c, id) => c.post(`/api/chats/${id}/reply`, { content: "injected question" }) },
  { name: "POST regenerate", send: (c, id) => c.post(`/api/chats/${id}/regenerate`, {}) },
  { name: "GET stream", send: (c, id) => c.get(`/api/chats/${id}/stream`) },
  { name: "POST stop", send: (c, id) => c.post(`/api/chats/${id}/stop`, {}) },
  {
    name: "POST /api/ai/chat with chatId",
    send: (c, id) => c.post("/api/ai/chat", aiBody(typeof id === "number" ? id : Number.isNaN(Number(id)) ? id : Number(id))),
  },
];

async function ownerView() {
  const chat = await owner.get(`/api/chats/${chatId}`);
  const messages = await owner.get(`/api/chats/${chatId}/messages`);
  const list = await owner.get("/api/chats");
  return {
    status: [chat.statusCode, messages.statusCode, list.statusCode],
    title: chat.json().title as string,
    messages: (messages.json() as { id: number; role: string; content: string; status: string }[]).map((m) => [
      m.id,
      m.role,
      m.content,
      m.status,
    ]),
    listed: (list.json() as { id: number }[]).some((c) => c.id === chatId),
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
        expect({ call: call.name, status: res.statusCode }).toEqual({ call: call.name, status: 404 });
        expect(res.json().message).toBe("Chat not found");
      }
    }
    expect(await ownerView()).toEqual(before);
    // The owner, for contrast, is allowed: the same calls succeed for them.
    expect((await owner.patch(`/api/chats/${chatId}`, { title: "My title" })).statusCode).toBe(200);
    expect((await owner.get(`/api/chats/${chatId}/stream`)).statusCode).toBe(204);
    const once = await owner.post("/api/ai/chat", aiBody(chatId));
    expect(once.statusCode).toBe(200);
    expect(once.json().content).toBe("Echo: leak it");
  });

  it("cannot stop, resume or race the owner's reply while it is being written", async () => {
    const running = owner.post(`/api/chats/${chatId}/reply`, { content: "long answer please #slow" });
    // Wait until the owner's reply is really streaming.
    for (let i = 0; i < 50 && (await owner.get(`/api/chats/${chatId}/stream`).then((r) => r.statusCode)) === 204; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const name of ["POST stop", "GET stream", "POST reply", "POST regenerate", "DELETE /api/chats/{id}"]) {
      const call = calls.find((c) => c.name === name);
      const res = await call?.send(intruder, chatId);
      // 404, not 409 "still being written": the stranger learns nothing about the chat.
      expect({ name, status: res?.statusCode }).toEqual({ name, status: 404 });
    }
    const events = parseEvents((await running).body);
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("complete");
    expect(textOf(events)).toMatch(/^Slow reply: word1 .* word38$/);
    const stored = (await owner.get(`/api/chats/${chatId}/messages`)).json() as { role: string; content: string }[];
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
      expect({ call: call.name, status: res.statusCode }).toEqual({ call: call.name, status: 401 });
    }
    for (const [method, url] of [
      ["GET", "/api/chats"],
      ["POST", "/api/chats"],
      ["GET", "/api/chats/search?q=private"],
      ["GET", "/api/ai/platforms"],
    ] as const) {
      const res = await anonymous.request({ method, url, payload: method === "POST" ? {} : undefined });
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
        if (![400, 404].includes(res.statusCode) || typeof res.json().message !== "string") {
          wrong.push(`${call.name} with id ${id}: ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await ownerView()).toEqual(before);
  });
});
