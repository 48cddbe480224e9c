// Chat search: by title words and message text (prefix words: "mark" finds "markdown"), a snippet for message hits,
// only the searcher's own listed chats, and the message text found through its GIN index, not a scan.
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat } from "../helpers/chat-setup.js";

let t: TestApp;
let alice: CookieClient;
let bob: CookieClient;
const ids: Record<string, number> = {};

async function chatWith(client: CookieClient, title: string, ...messages: string[]) {
  const chat = await newChat(client, { title });
  for (const content of messages) {
    const res = await client.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content, role: "user" } });
    expect(res.status).toBe(201);
  }
  return chat.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = (await registerAndSignIn(t.app)).client;
  bob = (await registerAndSignIn(t.app)).client;
  ids.holiday = await chatWith(alice, "Holiday planning in Lisbon", "Which museums open on Monday?");
  ids.tables = await chatWith(
    alice,
    "Formatting help",
    "How do I make tables?",
    "Some long introduction that goes on and on before it finally says that markdown tables use pipes and dashes for columns.",
  );
  ids.cooking = await chatWith(alice, "Dinner", "A recipe for pumpkin soup");
  ids.bob = await chatWith(bob, "Markdown for Bob", "bob writes markdown and holiday notes");
  expect((await alice.call(settingsApi.update, { body: { saveHistory: false } })).status).toBe(200);
  ids.temporary = await chatWith(alice, "Holiday scratch", "markdown scratch holiday note");
  expect((await alice.call(settingsApi.update, { body: { saveHistory: true } })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

async function search(client: CookieClient, q: string) {
  const res = await client.call(chatsApi.search, { query: { q } });
  expect(res.status).toBe(200);
  return res.data;
}

describe("chat search", () => {
  it("finds a chat by a title word, with no snippet when only the title matched", async () => {
    const hits = await search(alice, "lisbon");
    expect(hits.map((h) => h.id)).toEqual([ids.holiday]);
    expect(hits[0]).toMatchObject({ title: "Holiday planning in Lisbon", snippet: null, temporary: false });
    expect((await search(alice, "HOLIDAY")).map((h) => h.id)).toEqual([ids.holiday]);
  });

  it("finds a chat by message text, by word prefix, with a snippet around the word", async () => {
    for (const q of ["mark", "markdown", "Markdown tables", "pipes"]) {
      const hits = await search(alice, q);
      expect({ q, ids: hits.map((h) => h.id) }).toEqual({ q, ids: [ids.tables] });
      const word = q.split(" ")[0]!.toLowerCase();
      expect(hits[0]?.snippet?.toLowerCase()).toContain(word);
      expect(hits[0]!.snippet!.length).toBeLessThan(200);
    }
    expect((await search(alice, "pumpkin")).map((h) => [h.id, h.snippet])).toEqual([[ids.cooking, "A recipe for pumpkin soup"]]);
  });

  it("finds nothing for words that are nowhere, or when only some of the words match", async () => {
    expect(await search(alice, "zebra")).toEqual([]);
    expect(await search(alice, "markdown zebra")).toEqual([]);
    expect(await search(alice, "arkdown")).toEqual([]);
    expect(await search(alice, "!!! ???")).toEqual([]);
  });

  it("never returns someone else's chats or temporary chats", async () => {
    const forAlice = (await search(alice, "markdown")).map((h) => h.id);
    expect(forAlice).toEqual([ids.tables]);
    expect((await search(alice, "holiday")).map((h) => h.id)).toEqual([ids.holiday]);
    expect((await search(alice, "scratch")).map((h) => h.id)).toEqual([]);
    expect((await search(alice, "bob")).map((h) => h.id)).toEqual([]);
    // Bob, for contrast, finds his own chat by the same words.
    expect((await search(bob, "markdown")).map((h) => h.id)).toEqual([ids.bob]);
    expect((await search(bob, "holiday")).map((h) => h.id)).toEqual([ids.bob]);
  });

  it("refuses an empty query with 400", async () => {
    // Queries the contract refuses, the missing one among them: sent raw.
    for (const url of ["/api/chats/search?q=", "/api/chats/search?q=%20%20", "/api/chats/search"]) {
      const res = await alice.get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
    }
    expect((await alice.call(chatsApi.search, { query: { q: "" } })).error.message).toBe("Type something to search for");
  });

  it("searches message text through the GIN index messages_content_search_idx", async () => {
    // Capture the exact SQL the search runs, then ask the planner how it would run it.
    const db = t.database.db;
    const execute = db.execute.bind(db);
    const captured: SQL[] = [];
    db.execute = ((query: SQL) => {
      captured.push(query);
      return execute(query);
    }) as typeof db.execute;
    try {
      expect((await search(alice, "mark")).map((h) => h.id)).toEqual([ids.tables]);
    } finally {
      db.execute = execute;
    }
    expect(captured).toHaveLength(1);
    const planOf = (query: SQL) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const rows = (await tx.execute(sql`explain ${query}`)).rows as Record<string, string>[];
        return rows.map((r) => Object.values(r)[0]).join("\n");
      });
    const plan = await planOf(captured[0]!);
    expect(plan).toMatch(/Index Scan on messages_content_search_idx/);
    // Control: a LIKE scan over the text cannot use that index, so the check above really depends on the query.
    const like = await planOf(sql`select id from messages where content ilike ${"%mark%"}`);
    expect(like).not.toMatch(/messages_content_search_idx/);
  });
});
