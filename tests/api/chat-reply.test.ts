import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { STOPPED_BY_USER } from "../../src/server/modules/chat/generation/generation-manager.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi } from "../../src/shared/contracts/courses.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import { usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";
import { eventOf } from "../helpers/sse-reader.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  // Short enough that the hanging provider below ends soon, long enough for a first chunk on a loaded machine (800 ms was
  // not, once, at a load of 12).
  t = await buildTestApp({ env: { AI_CHUNK_TIMEOUT_MS: "2000", AI_FIRST_CHUNK_TIMEOUT_MS: "3000" } });
  ({ admin, user } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const reply = (client: CookieClient, id: number, content: string) => client.call(chatsApi.reply, { params: { id }, body: { content } });
const regenerate = (client: CookieClient, id: number) => client.call(chatsApi.regenerate, { params: { id }, body: {} });

/** Resolves once the chat's reply is being written here: its row is stored and some of its text has arrived. */
async function replyUnderWay(chatId: number): Promise<void> {
  await vi.waitUntil(
    async () => {
      const [reply] = await t.database.db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.chatId, chatId), eq(messages.role, "assistant")));
      return reply !== undefined && (t.app.ctx.generations.get(reply.id)?.content.length ?? 0) > 0;
    },
    { timeout: 30_000, interval: 20 },
  );
}

describe("a streamed reply", () => {
  it("stores the user message, streams the reply, stores it with usage, and titles the chat", async () => {
    const chat = await newChat(user);
    expect(chat.title).toBe("New Chat");
    const res = await reply(user, chat.id, "Hello there friend");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    const events = parseEvents(res.response.body);
    expect(events[0]?.type).toBe("start");
    expect(textOf(events)).toBe("Echo: Hello there friend");
    const done = eventOf(events.at(-1), "done");
    expect(done.assistantMessage.status).toBe("complete");
    expect(done.assistantMessage.outputTokens).toBeGreaterThan(0);

    const stored = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ["user", "Hello there friend"],
      ["assistant", "Echo: Hello there friend"],
    ]);
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).title).toBe("Hello there friend");
    // The provider got the whole conversation with the user's temperature and response length.
    const sent = fake.requests.at(-1)?.body as { temperature: number; max_tokens?: number; max_completion_tokens?: number };
    expect(sent.temperature).toBe(0.7);
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(1024);
  });

  it("ends with a done event carrying the chat, the reply's end of the branch and the usage, as their reads answer them", async () => {
    const chat = await newChat(user);
    /** The done event's `after`, and what GET chat, GET messages (the last two) and GET usage answer just after. */
    const endOf = async (sending: Promise<{ status: number; response: { body: string } }>) => {
      const res = await sending;
      expect(res.status).toBe(200);
      const done = eventOf(parseEvents(res.response.body).at(-1), "done");
      const [read, messages, usage] = await Promise.all([
        user.call(chatsApi.get, { params: { id: chat.id } }),
        user.call(chatsApi.messages, { params: { id: chat.id } }),
        user.call(usageApi.mine, {}),
      ]);
      // The reads as sent, whole.
      expect(done.after).toEqual({
        chat: read.response.json(),
        shown: messages.response.json().slice(-2),
        usage: usage.response.json(),
      });
      return { done, after: done.after ?? { shown: [] } };
    };

    // A send: the chat gets its title from the first message; the user's message and the reply, each alone.
    const sent = await endOf(reply(user, chat.id, "Name this chat for me"));
    expect(sent.done.after?.chat.title).toBe("Name this chat for me");
    expect(sent.after.shown.map((m) => [m.role, m.content, m.branch.count])).toEqual([
      ["user", "Name this chat for me", 1],
      ["assistant", "Echo: Name this chat for me", 1],
    ]);
    expect(sent.done.after?.usage.messages.used).toBeGreaterThan(0);
    const [question, answer] = sent.after.shown;

    // A regenerate: the same question, then the new reply, second of two.
    const regenerated = await endOf(regenerate(user, chat.id));
    expect(regenerated.after.shown[0]).toEqual(question);
    expect(regenerated.after.shown[1]?.branch).toEqual({
      index: 2,
      count: 2,
      siblingIds: [answer?.id, regenerated.done.assistantMessage.id],
    });

    // An edit: the new version of the question (second of two), then its reply.
    if (!question) throw new Error("no question shown");
    const edited = await endOf(
      user.call(chatsApi.editMessage, { params: { id: chat.id, messageId: question.id }, body: { content: "Another question" } }),
    );
    expect(edited.after.shown.map((m) => [m.role, m.content])).toEqual([
      ["user", "Another question"],
      ["assistant", "Echo: Another question"],
    ]);
    expect(edited.after.shown[0]?.branch).toMatchObject({ index: 2, count: 2 });
  });

  it("asks with the user's saved temperature and length once they change them, and with the defaults for others", async () => {
    // Another account's settings never leak into this one's reply (the settings are read with the chat).
    const { client: other } = await registerAndSignIn(t.app);
    expect((await other.call(settingsApi.update, { body: { temperature: "0.3" } })).status).toBe(200);
    expect((await other.call(settingsApi.update, { body: { maxTokens: 512 } })).status).toBe(200);
    const otherChat = await newChat(other);
    await reply(other, otherChat.id, "with my settings");
    const mine = fake.requests.at(-1)?.body as { temperature: number; max_tokens?: number; max_completion_tokens?: number };
    expect(mine.temperature).toBe(0.3);
    expect(mine.max_tokens ?? mine.max_completion_tokens).toBe(512);

    const chat = await newChat(user);
    await reply(user, chat.id, "with the defaults");
    const theirs = fake.requests.at(-1)?.body as { temperature: number; max_tokens?: number; max_completion_tokens?: number };
    expect(theirs.temperature).toBe(0.7);
    expect(theirs.max_tokens ?? theirs.max_completion_tokens).toBe(1024);
  });

  it("keeps what arrived when the stream is cut, marked incomplete, with a clear message", async () => {
    const chat = await newChat(user);
    const events = parseEvents((await reply(user, chat.id, "please #cut now")).response.body);
    const error = events.find((e) => e.type === "error");
    expect(error?.type === "error" && error.status).toBeGreaterThanOrEqual(500);
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("incomplete");
    expect(done?.type === "done" && done.assistantMessage.content.length).toBeGreaterThan(0);
  });

  it("ends a hanging provider with a timeout (504) instead of waiting forever", async () => {
    const chat = await newChat(user);
    const started = Date.now();
    const events = parseEvents((await reply(user, chat.id, "#hang")).response.body);
    expect(Date.now() - started).toBeLessThan(5000);
    const error = events.find((e) => e.type === "error");
    expect(error?.type === "error" && error.status).toBe(504);
  });

  it("lets only one of two replies sent at the same moment through; the other gets 409", async () => {
    const chat = await newChat(user);
    const [a, b] = await Promise.all([reply(user, chat.id, "first #slow"), reply(user, chat.id, "second #slow")]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const stored = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("lets one of several racing regenerates through; the others get 409, never 500", async () => {
    const chat = await newChat(user);
    await reply(user, chat.id, "hello");
    const tries = await Promise.all([1, 2, 3, 4].map(() => regenerate(user, chat.id)));
    const statuses = tries.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1)).toEqual([409, 409, 409]);
  });

  it("refuses cursors and ids out of range with 400, never 500", async () => {
    const chat = await newChat(user);
    for (const request of [
      requestFor(chatsApi.list, { query: { cursor: "99999999999999999999_1" } }),
      requestFor(chatsApi.list, { query: { cursor: "1_9999999999" } }),
      requestFor(chatsApi.messages, { params: { id: chat.id }, query: { before: 99999999999 } }),
      requestFor(coursesApi.list, { query: { cursor: "99999999999" } }),
      requestFor(coursesApi.list, { query: { cursor: "1e20" } }),
    ]) {
      const url = request.url;
      expect({ url, status: (await user.request(request)).statusCode }).toEqual({ url, status: 400 });
    }
  });

  it("ends the stream of a reply whose chat is deleted while it is written: stopped first, kept as incomplete", async () => {
    const chat = await newChat(user);
    const pending = reply(user, chat.id, "long one #slow");
    await replyUnderWay(chat.id);
    expect((await user.call(chatsApi.remove, { params: { id: chat.id } })).status).toBe(204);
    // The delete stops the reply and waits for its end before the rows go, so its stream ends with the stopped reply.
    const last = parseEvents((await pending).response.body).at(-1);
    expect(last).toMatchObject({ type: "done", assistantMessage: { status: "incomplete", error: STOPPED_BY_USER } });
    expect((await user.call(chatsApi.get, { params: { id: chat.id } })).status).toBe(404);
  });

  it("ends the stream with 'This chat was deleted.' when the chat's rows go while the reply is still written", async () => {
    // What a delete that could not stop the reply in time leaves (its writer busy past the Stop's wait): the rows are
    // gone under a running reply, whose end then finds nothing to save.
    const chat = await newChat(user);
    const pending = reply(user, chat.id, "long one #slow");
    await replyUnderWay(chat.id);
    await t.database.db.delete(chats).where(eq(chats.id, chat.id));
    const last = parseEvents((await pending).response.body).at(-1);

    expect(last).toMatchObject({ type: "error", status: 404, message: "This chat was deleted." });
  });
});
