// Replies stream over a real connection and live apart from it (docs/product.md, Chat): Stop keeps what arrived, a dropped
// connection resumes from a snapshot without repeating or skipping text, one reply at a time per chat, regenerate
// shows a new reply in place of the last one (the earlier one stays as a branch: chat-branches.test.ts), and the
// growing reply is saved while it is written.
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi, type StreamEvent } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";
import { eventOf, parseStreamEvent } from "../helpers/sse-reader.js";

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
let base: string;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const both = await adminAndUser(t.app);
  user = both.user;
  await pointPlatformAt(both.admin, "openai", fake);
  base = await t.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live SSE connection (the request the contract builds, sent over a real socket): events as they arrive, and a way to wait for some. */
async function open(request: InjectOptions, signal?: AbortSignal) {
  const body = request.payload;
  const res = await fetch(`${base}${request.url}`, {
    method: request.method ?? "GET",
    headers: { cookie: user.sessionCookie ?? "", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
  const events: StreamEvent[] = [];
  const finished = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = res.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      buffer += decoder.decode(part.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const line = buffer
          .slice(0, end)
          .split("\n")
          .find((l) => l.startsWith("data: "));
        buffer = buffer.slice(end + 2);
        if (line) events.push(parseStreamEvent(line.slice(6)));
      }
    }
  })().catch((error: unknown) => {
    if ((error as Error).name !== "AbortError") throw error;
  });
  async function until(check: (events: StreamEvent[]) => boolean, ms = 10_000) {
    for (const end = Date.now() + ms; !check(events); await sleep(20)) {
      if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(events.map((e) => e.type))}`);
    }
  }
  return { res, events, finished, until };
}

const deltas = (n: number) => (events: StreamEvent[]) => events.filter((e) => e.type === "delta").length >= n;
const lastOf = (events: StreamEvent[]) => events.at(-1);
const messagesOf = async (chatId: number) => (await user.ok(chatsApi.messages, { params: { id: chatId } })).items;
const replyRequest = (id: number, content: string) => requestFor(chatsApi.reply, { params: { id }, body: { content } });
const reply = (id: number, content: string) => user.call(chatsApi.reply, { params: { id }, body: { content } });
const regenerate = (id: number) => user.call(chatsApi.regenerate, { params: { id }, body: {} });
const stop = (id: number) => user.call(chatsApi.stop, { params: { id } });
const SLOW_TEXT = `Slow reply: ${Array.from({ length: 38 }, (_, i) => `word${i + 1}`).join(" ")}`;

describe("a streamed reply over a real connection", () => {
  it("stops on Stop, keeping exactly the text that arrived, marked incomplete", async () => {
    const chat = await newChat(user);
    const stream = await open(replyRequest(chat.id, "talk slowly #slow"));
    expect(stream.res.status).toBe(200);
    await stream.until(deltas(2));
    const stopped = await stop(chat.id);
    expect(stopped.status).toBe(200);
    expect(stopped.response.json()).toEqual({ stopped: true });
    await stream.finished;
    const done = eventOf(lastOf(stream.events), "done");
    const arrived = textOf(stream.events);
    expect(done.assistantMessage.status).toBe("incomplete");
    expect(done.assistantMessage.content).toBe(arrived);
    expect(arrived.length).toBeGreaterThan(0);
    expect(SLOW_TEXT.startsWith(arrived) && arrived !== SLOW_TEXT).toBe(true);
    const stored = (await messagesOf(chat.id)).at(-1);
    expect(stored).toMatchObject({ id: done.assistantMessage.id, content: arrived, status: "incomplete" });
    expect(stored?.error).toEqual(expect.any(String));
    // Nothing left to stop.
    expect((await stop(chat.id)).response.json()).toEqual({ stopped: false });
  });

  it("goes on when the connection drops, and resumes from a snapshot with no repeat and no gap", async () => {
    const chat = await newChat(user);
    const abort = new AbortController();
    const first = await open(replyRequest(chat.id, "#slow"), abort.signal);
    await first.until(deltas(2));
    abort.abort();
    await first.finished;
    const seenBefore = textOf(first.events);
    await sleep(500);

    const resumed = await open(requestFor(chatsApi.stream, { params: { id: chat.id } }));
    expect(resumed.res.status).toBe(200);
    await resumed.finished;
    const [head, ...rest] = resumed.events;
    const snapshot = eventOf(head, "snapshot");
    const start = snapshot.assistantMessage.content;
    expect(start.startsWith(seenBefore)).toBe(true);
    expect(start.length).toBeGreaterThan(seenBefore.length);
    expect(rest.filter((e) => e.type === "delta").length).toBeGreaterThan(0);
    const firstDelta = rest.find((e) => e.type === "delta");
    expect(firstDelta?.type === "delta" && firstDelta.offset).toBe(start.length);
    const done = eventOf(lastOf(rest), "done");
    expect(start + textOf(rest)).toBe(done.assistantMessage.content);
    expect(done.assistantMessage).toMatchObject({ status: "complete", content: SLOW_TEXT, id: snapshot.assistantMessage.id });
    const stored = (await messagesOf(chat.id)).at(-1);
    expect(stored).toMatchObject({ content: SLOW_TEXT, status: "complete" });
    // The resumed stream's done carries what the reply changed too, as the reads answer it.
    expect(done.after?.chat).toEqual(await user.ok(chatsApi.get, { params: { id: chat.id } }));
    expect(done.after?.shown).toEqual((await messagesOf(chat.id)).slice(-2));
  });

  it("answers 204 on GET /stream when nothing is being written", async () => {
    const chat = await newChat(user);
    const resume = () => user.call(chatsApi.stream, { params: { id: chat.id } });
    expect((await resume()).status).toBe(204);
    await reply(chat.id, "quick one");
    const res = await resume();
    expect(res.status).toBe(204);
    expect(res.response.body).toBe("");
  });

  it("refuses a second reply or a regenerate while one is being written (409), and allows it afterwards", async () => {
    const chat = await newChat(user);
    const stream = await open(replyRequest(chat.id, "#slow"));
    await stream.until(deltas(1));
    for (const [url, send] of [
      ["reply", () => reply(chat.id, "me too")],
      ["regenerate", () => regenerate(chat.id)],
    ] as const) {
      const res = await send();
      expect({ url, status: res.status }).toEqual({ url, status: 409 });
      expect(res.error.message).toMatch(/still being written/);
    }
    await stream.finished;
    expect((await messagesOf(chat.id)).map((m) => m.role)).toEqual(["user", "assistant"]);
    const after = await reply(chat.id, "me too");
    expect(after.status).toBe(200);
    expect(textOf(parseEvents(after.response.body))).toBe("Echo: me too");
  });

  it("regenerate shows a new reply in place of the last one: a new id, still one reply after the user message on the branch shown", async () => {
    const chat = await newChat(user);
    expect((await regenerate(chat.id)).status).toBe(400);
    await reply(chat.id, "say it again");
    const before = await messagesOf(chat.id);
    expect(before.map((m) => m.role)).toEqual(["user", "assistant"]);
    const res = await regenerate(chat.id);
    expect(res.status).toBe(200);
    const events = parseEvents(res.response.body);
    const start = events[0];
    expect(start?.type === "start" && start.userMessage).toBeNull();
    expect(textOf(events)).toBe("Echo: say it again");
    const after = await messagesOf(chat.id);
    expect(after.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "say it again", "complete"],
      ["assistant", "Echo: say it again", "complete"],
    ]);
    expect(after[0]?.id).toBe(before[0]?.id);
    expect(after[1]?.id).not.toBe(before[1]?.id);
    expect(start?.type === "start" && start.assistantMessage.id).toBe(after[1]?.id);
  });

  it("saves the reply as it grows: mid-stream the stored message already has text and status streaming", async () => {
    const chat = await newChat(user);
    const stream = await open(replyRequest(chat.id, "#slow"));
    await stream.until((events) => events.length > 0);
    const start = eventOf(stream.events[0], "start");
    expect(start.assistantMessage.status).toBe("streaming");
    await sleep(1500);
    const read = async () =>
      (await t.database.db.execute(sql`select content, status from messages where id = ${start.assistantMessage.id}`)).rows[0] as {
        content: string;
        status: string;
      };
    const midway = await read();
    expect(midway.status).toBe("streaming");
    expect(midway.content.length).toBeGreaterThan(0);
    expect(SLOW_TEXT.startsWith(midway.content) && midway.content !== SLOW_TEXT).toBe(true);
    await stream.finished;
    expect(await read()).toEqual({ content: SLOW_TEXT, status: "complete" });
  });
});
