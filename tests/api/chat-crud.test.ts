// Chats and messages as the product's calls use them (docs/product.md, Chat): create, rename, delete, the list
// (newest activity first, paged by limit + X-Next-Cursor), the client-driven sending order, message paging,
// the "Message cannot be empty" rule and Save Chat History off.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, pointPlatformAt } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  const both = await adminAndUser(t.app);
  user = both.user;
  await pointPlatformAt(both.admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const countMessages = async (chatId: number) =>
  Number((await t.database.db.execute(sql`select count(*)::int as n from messages where chat_id = ${chatId}`)).rows[0]?.n);

describe("a chat", () => {
  it("is created with the product's defaults, or with the title and platform sent", async () => {
    const res = await user.call(chatsApi.create, { body: {} });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ title: "New Chat", aiPlatform: "openai", temporary: false, id: expect.any(Number) });
    const named = await user.ok(chatsApi.create, { body: { title: "Trip plans", aiPlatform: "mistral" } });
    expect(named).toMatchObject({ title: "Trip plans", aiPlatform: "mistral" });
    expect((await user.call(chatsApi.create, { body: { aiPlatform: "Not A Slug!" } })).status).toBe(400);
  });

  it("is renamed with PATCH, and a blank title or an empty change is refused", async () => {
    const chat = await newChat(user);
    const res = await user.call(chatsApi.update, { params: { id: chat.id }, body: { title: "  Renamed chat  " } });
    expect(res.status).toBe(200);
    expect(res.data.title).toBe("Renamed chat");
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).title).toBe("Renamed chat");
    const blank = await user.call(chatsApi.update, { params: { id: chat.id }, body: { title: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.error.message).toBe("Title is required");
    expect((await user.call(chatsApi.update, { params: { id: chat.id }, body: {} })).status).toBe(400);
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).title).toBe("Renamed chat");
  });

  it("is deleted with its messages, and a second delete is 404", async () => {
    const chat = await newChat(user);
    const keep = await newChat(user);
    for (const c of [chat, keep]) await user.ok(chatsApi.addMessage, { params: { id: c.id }, body: { content: "hello" } });
    expect(await countMessages(chat.id)).toBe(1);
    const res = await user.call(chatsApi.remove, { params: { id: chat.id } });
    expect(res.status).toBe(204);
    expect((await user.call(chatsApi.get, { params: { id: chat.id } })).status).toBe(404);
    expect((await user.call(chatsApi.messages, { params: { id: chat.id } })).status).toBe(404);
    expect(await countMessages(chat.id)).toBe(0);
    expect(await countMessages(keep.id)).toBe(1);
    expect((await user.call(chatsApi.remove, { params: { id: chat.id } })).status).toBe(404);
  });
});

describe("the chat list", () => {
  it("is newest activity first and pages with limit + X-Next-Cursor, each chat exactly once", async () => {
    const { client } = await registerAndSignIn(t.app);
    const created: number[] = [];
    for (let i = 0; i < 7; i++) {
      const chat = await newChat(client, { title: `Chat ${i}` });
      await client.ok(chatsApi.addMessage, { params: { id: chat.id }, body: { content: `first message ${i}` } });
      created.push(chat.id);
    }
    // Activity on the oldest chat brings it to the top.
    await client.ok(chatsApi.addMessage, { params: { id: created[0] }, body: { content: "bump" } });
    const expected = [created[0], ...created.slice(1).reverse()];

    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const res = await client.call(chatsApi.list, { query: { limit: 3, cursor } });
      expect(res.status).toBe(200);
      const page = res.data.items;
      for (let i = 1; i < page.length; i++) expect(page[i - 1]!.updatedAt >= page[i]!.updatedAt).toBe(true);
      pages.push(page.map((c) => c.id));
      cursor = res.data.nextCursor ?? undefined;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(expected);
    // Without a limit, the product's plain list: all of them, same order, no cursor.
    const all = await client.call(chatsApi.list, {});
    expect(all.data.items.map((c) => c.id)).toEqual(expected);
    expect(all.headers["x-next-cursor"]).toBeUndefined();
  });

  it("leaves out a chat with no message, until its first message", async () => {
    const { client } = await registerAndSignIn(t.app);
    const listed = async () => (await client.ok(chatsApi.list, {})).items.map((c) => c.id);
    const empty = await newChat(client);
    const other = await newChat(client);
    expect(await listed()).toEqual([]);
    // Readable by id all the same (the page that just created it opens it).
    expect((await client.call(chatsApi.get, { params: { id: empty.id } })).status).toBe(200);
    await client.ok(chatsApi.addMessage, { params: { id: empty.id }, body: { content: "now it exists" } });
    expect(await listed()).toEqual([empty.id]);
    expect(await listed()).not.toContain(other.id);
  });

  it("refuses a bad cursor or limit with 400", async () => {
    // Raw query strings on purpose: values the typed query could not even carry (text for a number, SQL-ish text).
    for (const query of ["cursor=garbage", "cursor=12_x", "cursor=%27%3B--", "limit=0", "limit=abc", "limit=100000"]) {
      const res = await user.get(`/api/chats?${query}`);
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
    }
    expect((await user.call(chatsApi.list, { query: { cursor: "garbage" } })).error.message).toBe("Invalid cursor");
  });
});

describe("messages", () => {
  it("follow the product's sending order: user stored, AI asked with the whole list, reply stored, list shows both", async () => {
    const chat = await newChat(user);
    const first = await user.call(chatsApi.addMessage, {
      params: { id: chat.id },
      body: { content: "What is two plus two?", role: "user" },
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ role: "user", content: "What is two plus two?", chatId: chat.id });
    const history = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items.map(({ role, content }) => ({ role, content }));
    const asked = fake.requests.length;
    const ai = await user.call(chatsApi.aiChat, { body: { platformSlug: "openai", messages: history } });
    expect(ai.status).toBe(200);
    expect(ai.data).toEqual({ content: "Echo: What is two plus two?" });
    const sent = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(fake.requests.length).toBe(asked + 1);
    expect(sent.messages.filter((m) => m.role !== "system")).toEqual([{ role: "user", content: "What is two plus two?" }]);
    const second = await user.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content: ai.data.content, role: "assistant" } });
    expect(second.status).toBe(201);
    const list = (await user.ok(chatsApi.messages, { params: { id: chat.id } })).items;
    expect(list.map((m) => [m.role, m.content])).toEqual([
      ["user", "What is two plus two?"],
      ["assistant", "Echo: What is two plus two?"],
    ]);
    expect(list[0]!.id).toBeLessThan(list[1]!.id);
    // The first user message named the chat.
    expect((await user.ok(chatsApi.get, { params: { id: chat.id } })).title).toBe("What is two plus two?");
  });

  it("page back with limit + before, newest page first, oldest first within a page", async () => {
    const chat = await newChat(user);
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await user.ok(chatsApi.addMessage, { params: { id: chat.id }, body: { content: `m${i}` } })).id);
    const pages: string[][] = [];
    let before: string | undefined;
    do {
      const res = await user.call(chatsApi.messages, { params: { id: chat.id }, query: { limit: 2, before } });
      expect(res.status).toBe(200);
      pages.push(res.data.items.map((m) => m.content));
      before = res.data.nextCursor ?? undefined;
    } while (before && pages.length < 10);
    expect(pages).toEqual([["m4", "m5"], ["m2", "m3"], ["m1"]]);
    const all = await user.call(chatsApi.messages, { params: { id: chat.id } });
    expect(all.data.items.map((m) => m.id)).toEqual(ids);
    expect(all.headers["x-next-cursor"]).toBeUndefined();
    expect((await user.call(chatsApi.messages, { params: { id: chat.id }, query: { before: "abc" } })).status).toBe(400);
  });

  it("refuse empty or blank content with 'Message cannot be empty', and store nothing", async () => {
    const chat = await newChat(user);
    const params = { id: chat.id };
    const sends = [
      ["messages", (body: object) => user.call(chatsApi.addMessage, { params, body: { content: "" } }, { rawBody: body })],
      ["reply", (body: object) => user.call(chatsApi.reply, { params, body: { content: "" } }, { rawBody: body })],
    ] as const;
    for (const [url, send] of sends) {
      for (const body of [{ content: "" }, { content: "   \n\t " }, {}]) {
        const res = await send(body);
        expect({ url, body, status: res.status }).toEqual({ url, body, status: 400 });
        expect(res.error.message).toBe("Message cannot be empty");
      }
    }
    expect(await countMessages(chat.id)).toBe(0);
    expect((await user.ok(chatsApi.addMessage, { params: { id: chat.id }, body: { content: "  x  " } })).content).toBe("x");
  });
});

describe("Save Chat History off", () => {
  it("makes new chats temporary: not listed, still readable by id; turning it back on lists new chats again", async () => {
    const { client } = await registerAndSignIn(t.app);
    const kept = await newChat(client, { title: "Kept" });
    await client.ok(chatsApi.addMessage, { params: { id: kept.id }, body: { content: "keep me" } });
    expect((await client.call(settingsApi.update, { body: { saveHistory: false } })).status).toBe(200);
    const temp = await client.ok(chatsApi.create, { body: { title: "Scratch" } });
    expect(temp.temporary).toBe(true);
    await client.ok(chatsApi.addMessage, { params: { id: temp.id }, body: { content: "secret scratch note" } });
    expect((await client.ok(chatsApi.list, {})).items.map((c) => c.id)).toEqual([kept.id]);
    const byId = await client.call(chatsApi.get, { params: { id: temp.id } });
    expect(byId.status).toBe(200);
    expect(byId.data).toMatchObject({ id: temp.id, temporary: true });
    expect((await client.ok(chatsApi.messages, { params: { id: temp.id } })).items.map((m) => m.content)).toEqual(["secret scratch note"]);
    expect((await client.call(settingsApi.update, { body: { saveHistory: true } })).status).toBe(200);
    const again = await client.ok(chatsApi.create, { body: {} });
    expect(again.temporary).toBe(false);
    await client.ok(chatsApi.addMessage, { params: { id: again.id }, body: { content: "listed again" } });
    expect((await client.ok(chatsApi.list, {})).items.map((c) => c.id)).toEqual([again.id, kept.id]);
  });
});
