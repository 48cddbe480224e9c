// Chats and messages as the product's calls use them (docs/product.md, Chat): create, rename, delete, the list
// (newest activity first, paged by limit + X-Next-Cursor), the client-driven sending order, message paging,
// the "Message cannot be empty" rule and Save Chat History off.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, pointPlatformAt } from "../helpers/chat-setup.js";

type Chat = { id: number; title: string; aiPlatform: string; temporary: boolean; updatedAt: string };
type Msg = { id: number; role: string; content: string; status: string };

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
    const res = await user.post("/api/chats", {});
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: "New Chat", aiPlatform: "openai", temporary: false, id: expect.any(Number) });
    const named = (await user.post("/api/chats", { title: "Trip plans", aiPlatform: "mistral" })).json();
    expect(named).toMatchObject({ title: "Trip plans", aiPlatform: "mistral" });
    expect((await user.post("/api/chats", { aiPlatform: "Not A Slug!" })).statusCode).toBe(400);
  });

  it("is renamed with PATCH, and a blank title or an empty change is refused", async () => {
    const chat = await newChat(user);
    const res = await user.patch(`/api/chats/${chat.id}`, { title: "  Renamed chat  " });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe("Renamed chat");
    expect((await user.get(`/api/chats/${chat.id}`)).json().title).toBe("Renamed chat");
    const blank = await user.patch(`/api/chats/${chat.id}`, { title: "   " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe("Title is required");
    expect((await user.patch(`/api/chats/${chat.id}`, {})).statusCode).toBe(400);
    expect((await user.get(`/api/chats/${chat.id}`)).json().title).toBe("Renamed chat");
  });

  it("is deleted with its messages, and a second delete is 404", async () => {
    const chat = await newChat(user);
    const keep = await newChat(user);
    for (const c of [chat, keep]) await user.post(`/api/chats/${c.id}/messages`, { content: "hello" });
    expect(await countMessages(chat.id)).toBe(1);
    const res = await user.request({ method: "DELETE", url: `/api/chats/${chat.id}` });
    expect(res.statusCode).toBe(204);
    expect((await user.get(`/api/chats/${chat.id}`)).statusCode).toBe(404);
    expect((await user.get(`/api/chats/${chat.id}/messages`)).statusCode).toBe(404);
    expect(await countMessages(chat.id)).toBe(0);
    expect(await countMessages(keep.id)).toBe(1);
    expect((await user.request({ method: "DELETE", url: `/api/chats/${chat.id}` })).statusCode).toBe(404);
  });
});

describe("the chat list", () => {
  it("is newest activity first and pages with limit + X-Next-Cursor, each chat exactly once", async () => {
    const { client } = await registerAndSignIn(t.app);
    const created: number[] = [];
    for (let i = 0; i < 7; i++) {
      const chat = await newChat(client, { title: `Chat ${i}` });
      await client.post(`/api/chats/${chat.id}/messages`, { content: `first message ${i}` });
      created.push(chat.id);
    }
    // Activity on the oldest chat brings it to the top.
    await client.post(`/api/chats/${created[0]}/messages`, { content: "bump" });
    const expected = [created[0], ...created.slice(1).reverse()];

    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const res = await client.get(`/api/chats?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.statusCode).toBe(200);
      const page = res.json() as Chat[];
      for (let i = 1; i < page.length; i++) expect(page[i - 1]!.updatedAt >= page[i]!.updatedAt).toBe(true);
      pages.push(page.map((c) => c.id));
      cursor = res.headers["x-next-cursor"] as string | undefined;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(expected);
    // Without a limit, the product's plain list: all of them, same order, no cursor.
    const all = await client.get("/api/chats");
    expect((all.json() as Chat[]).map((c) => c.id)).toEqual(expected);
    expect(all.headers["x-next-cursor"]).toBeUndefined();
  });

  it("leaves out a chat with no message, until its first message", async () => {
    const { client } = await registerAndSignIn(t.app);
    const listed = async () => ((await client.get("/api/chats")).json() as Chat[]).map((c) => c.id);
    const empty = await newChat(client);
    const other = await newChat(client);
    expect(await listed()).toEqual([]);
    // Readable by id all the same (the page that just created it opens it).
    expect((await client.get(`/api/chats/${empty.id}`)).statusCode).toBe(200);
    await client.post(`/api/chats/${empty.id}/messages`, { content: "now it exists" });
    expect(await listed()).toEqual([empty.id]);
    expect(await listed()).not.toContain(other.id);
  });

  it("refuses a bad cursor or limit with 400", async () => {
    for (const query of ["cursor=garbage", "cursor=12_x", "cursor=%27%3B--", "limit=0", "limit=abc", "limit=100000"]) {
      const res = await user.get(`/api/chats?${query}`);
      expect({ query, status: res.statusCode }).toEqual({ query, status: 400 });
    }
    expect((await user.get("/api/chats?cursor=garbage")).json().message).toBe("Invalid cursor");
  });
});

describe("messages", () => {
  it("follow the product's sending order: user stored, AI asked with the whole list, reply stored, list shows both", async () => {
    const chat = await newChat(user);
    const first = await user.post(`/api/chats/${chat.id}/messages`, { content: "What is two plus two?", role: "user" });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ role: "user", content: "What is two plus two?", chatId: chat.id });
    const history = ((await user.get(`/api/chats/${chat.id}/messages`)).json() as Msg[]).map(({ role, content }) => ({ role, content }));
    const asked = fake.requests.length;
    const ai = await user.post("/api/ai/chat", { platformSlug: "openai", messages: history });
    expect(ai.statusCode).toBe(200);
    expect(ai.json()).toEqual({ content: "Echo: What is two plus two?" });
    const sent = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(fake.requests.length).toBe(asked + 1);
    expect(sent.messages.filter((m) => m.role !== "system")).toEqual([{ role: "user", content: "What is two plus two?" }]);
    const second = await user.post(`/api/chats/${chat.id}/messages`, { content: ai.json().content, role: "assistant" });
    expect(second.statusCode).toBe(201);
    const list = (await user.get(`/api/chats/${chat.id}/messages`)).json() as Msg[];
    expect(list.map((m) => [m.role, m.content])).toEqual([
      ["user", "What is two plus two?"],
      ["assistant", "Echo: What is two plus two?"],
    ]);
    expect(list[0]!.id).toBeLessThan(list[1]!.id);
    // The first user message named the chat.
    expect((await user.get(`/api/chats/${chat.id}`)).json().title).toBe("What is two plus two?");
  });

  it("page back with limit + before, newest page first, oldest first within a page", async () => {
    const chat = await newChat(user);
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) ids.push((await user.post(`/api/chats/${chat.id}/messages`, { content: `m${i}` })).json().id);
    const pages: string[][] = [];
    let before: string | undefined;
    do {
      const res = await user.get(`/api/chats/${chat.id}/messages?limit=2${before ? `&before=${before}` : ""}`);
      expect(res.statusCode).toBe(200);
      pages.push((res.json() as Msg[]).map((m) => m.content));
      before = res.headers["x-next-cursor"] as string | undefined;
    } while (before && pages.length < 10);
    expect(pages).toEqual([["m4", "m5"], ["m2", "m3"], ["m1"]]);
    const all = await user.get(`/api/chats/${chat.id}/messages`);
    expect((all.json() as Msg[]).map((m) => m.id)).toEqual(ids);
    expect(all.headers["x-next-cursor"]).toBeUndefined();
    expect((await user.get(`/api/chats/${chat.id}/messages?before=abc`)).statusCode).toBe(400);
  });

  it("refuse empty or blank content with 'Message cannot be empty', and store nothing", async () => {
    const chat = await newChat(user);
    for (const url of [`/api/chats/${chat.id}/messages`, `/api/chats/${chat.id}/reply`]) {
      for (const body of [{ content: "" }, { content: "   \n\t " }, {}]) {
        const res = await user.post(url, body);
        expect({ url, body, status: res.statusCode }).toEqual({ url, body, status: 400 });
        expect(res.json().message).toBe("Message cannot be empty");
      }
    }
    expect(await countMessages(chat.id)).toBe(0);
    expect((await user.post(`/api/chats/${chat.id}/messages`, { content: "  x  " })).json().content).toBe("x");
  });
});

describe("Save Chat History off", () => {
  it("makes new chats temporary: not listed, still readable by id; turning it back on lists new chats again", async () => {
    const { client } = await registerAndSignIn(t.app);
    const kept = await newChat(client, { title: "Kept" });
    await client.post(`/api/chats/${kept.id}/messages`, { content: "keep me" });
    expect((await client.patch("/api/user/settings", { saveHistory: false })).statusCode).toBe(200);
    const temp = (await client.post("/api/chats", { title: "Scratch" })).json() as Chat;
    expect(temp.temporary).toBe(true);
    await client.post(`/api/chats/${temp.id}/messages`, { content: "secret scratch note" });
    expect(((await client.get("/api/chats")).json() as Chat[]).map((c) => c.id)).toEqual([kept.id]);
    const byId = await client.get(`/api/chats/${temp.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({ id: temp.id, temporary: true });
    expect(((await client.get(`/api/chats/${temp.id}/messages`)).json() as Msg[]).map((m) => m.content)).toEqual(["secret scratch note"]);
    expect((await client.patch("/api/user/settings", { saveHistory: true })).statusCode).toBe(200);
    const again = (await client.post("/api/chats", {})).json() as Chat;
    expect(again.temporary).toBe(false);
    await client.post(`/api/chats/${again.id}/messages`, { content: "listed again" });
    expect(((await client.get("/api/chats")).json() as Chat[]).map((c) => c.id)).toEqual([again.id, kept.id]);
  });
});
