// Export (one chat or all, JSON or Markdown, streamed a page at a time) and import (this app's JSON or ChatGPT's
// conversations.json): the tree and the shown branch survive a round trip, a bad file imports nothing, an import
// lands in the signed-in account only, imported text is searchable at once.
import { readFileSync } from "node:fs";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chats, messages } from "../../src/server/db/schema/index.js";
import { BAD_TEXT } from "../../src/server/lib/text-guard.js";
import { chatPages } from "../../src/server/modules/chat-transfer/chat-pages.js";
import { ALREADY_IMPORTED } from "../../src/server/modules/chat-transfer/import-service.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import {
  type ChatExportFile,
  chatExportFileSchema,
  chatTransferApi,
  IMPORT_LIMIT_MESSAGES,
  IMPORT_LIMITS,
} from "../../src/shared/contracts/chat-transfer.js";
import { errorBodySchema } from "../../src/shared/contracts/errors.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let alice: { client: CookieClient; id: number };
let bob: { client: CookieClient; id: number };
let branchy: { chatId: number; ids: number[] };

const day = () => new Date().toISOString().slice(0, 10);
const chatGptSample = readFileSync(new URL("../fixtures/chatgpt-conversations.json", import.meta.url));

type Seed = { key: string; parent?: string; role: "user" | "assistant"; content: string; extra?: Partial<typeof messages.$inferInsert> };

/** A chat written straight into the tables (as edit and regenerate leave it): a tree of messages and a shown leaf. */
async function seedChat(userId: number, title: string, seeds: Seed[], leaf?: string, chatExtra: Partial<typeof chats.$inferInsert> = {}) {
  const db = t.database.db;
  const [chat] = await db
    .insert(chats)
    .values({ userId, title, aiPlatform: "openai", model: "fake-model", ...chatExtra })
    .returning();
  if (!chat) throw new Error("no chat");
  const ids = new Map<string, number>();
  for (const [index, seed] of seeds.entries()) {
    const [row] = await db
      .insert(messages)
      .values({
        chatId: chat.id,
        userId,
        parentId: seed.parent ? ids.get(seed.parent) : null,
        role: seed.role,
        content: seed.content,
        createdAt: new Date(Date.UTC(2025, 0, 2, 10, index)),
        ...seed.extra,
      })
      .returning();
    if (!row) throw new Error("no message");
    ids.set(seed.key, row.id);
  }
  if (leaf)
    await db
      .update(chats)
      .set({ activeLeafId: ids.get(leaf) })
      .where(eq(chats.id, chat.id));
  return { chatId: chat.id, ids: [...ids.values()] };
}

type Format = "json" | "markdown";

/** The export's bytes (the contract types no answer for a download): every chat, or the one `chatId` names. */
async function download(client: CookieClient, format: Format, chatId?: number) {
  const query = { format };
  const res =
    chatId === undefined
      ? await client.call(chatTransferApi.exportAll, { query })
      : await client.call(chatTransferApi.exportOne, { params: { id: chatId }, query });
  expect(res.status, res.response.body.slice(0, 300)).toBe(200);
  return res.response;
}

async function exportJson(client: CookieClient): Promise<ChatExportFile> {
  return chatExportFileSchema.parse((await download(client, "json")).json());
}

function importFile(client: CookieClient, bytes: Uint8Array | string, name = "chats.json") {
  const multipart = multipartFile("file", name, "application/json", typeof bytes === "string" ? Buffer.from(bytes) : bytes);
  return client.call(chatTransferApi.import, {}, { multipart });
}

/** An import sent as a JSON body (the contract names the upload only): sent as it is. */
const importBody = (client: CookieClient, body?: unknown) => client.call(chatTransferApi.import, {}, { rawBody: body });

const chatCount = async (userId: number) =>
  Number((await t.database.db.select({ n: count() }).from(chats).where(eq(chats.userId, userId)))[0]?.n);
const withoutTimes = (file: ChatExportFile) => file.chats;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await registerAndSignIn(t.app);
  const b = await registerAndSignIn(t.app);
  alice = { client: a.client, id: a.user.id };
  bob = { client: b.client, id: b.user.id };
  branchy = await seedChat(
    alice.id,
    "Branchy chat: Lisbon!",
    [
      { key: "hello", role: "user", content: "Hello there" },
      { key: "first", parent: "hello", role: "assistant", content: "Hi! This is the first answer", extra: { status: "incomplete" } },
      {
        key: "second",
        parent: "hello",
        role: "assistant",
        content: "Hi! This is the second answer",
        extra: { model: "fake-model", platformSlug: "openai", personalityName: "Guide" },
      },
      {
        key: "ask",
        parent: "first",
        role: "user",
        content: "Tell me about Lisbon",
        extra: { attachments: [{ name: "notes.md", size: 10, content: "# My notes" }] },
      },
      {
        key: "lisbon",
        parent: "ask",
        role: "assistant",
        content: "Lisbon is hilly",
        extra: { model: "fake-model", platformSlug: "openai" },
      },
    ],
    "second",
  );
});
afterAll(async () => {
  await t?.close();
});

describe("export", () => {
  it("exports one chat as JSON: the whole tree, local ids, the shown leaf, a file name from the title", async () => {
    const res = await download(alice.client, "json", branchy.chatId);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="branchy-chat-lisbon-${day()}.json"; filename*=UTF-8''branchy-chat-lisbon-${day()}.json`,
    );
    const file = chatExportFileSchema.parse(res.json());
    // Named after the product (issue 29).
    expect(file).toMatchObject({ format: "lumora.chats", version: 1 });
    expect(file.chats).toHaveLength(1);
    const [chat] = file.chats;
    expect(chat).toMatchObject({ title: "Branchy chat: Lisbon!", platform: "openai", model: "fake-model", activeLeafId: 3 });
    expect(chat?.messages.map((m) => [m.id, m.parentId, m.role])).toEqual([
      [1, null, "user"],
      [2, 1, "assistant"],
      [3, 1, "assistant"],
      [4, 2, "user"],
      [5, 4, "assistant"],
    ]);
    expect(chat?.messages[1]?.status).toBe("incomplete");
    expect(chat?.messages[2]).toMatchObject({ personalityName: "Guide", model: "fake-model", platform: "openai" });
    expect(chat?.messages[3]?.attachments).toEqual([{ name: "notes.md", size: 10, content: "# My notes" }]);
    expect(chat?.messages[0]?.createdAt).toBe("2025-01-02T10:00:00.000Z");
  });

  it("exports one chat as Markdown: the branch shown, as a transcript", async () => {
    const res = await download(alice.client, "markdown", branchy.chatId);
    expect(res.headers["content-type"]).toContain("text/markdown");
    expect(res.headers["content-disposition"]).toContain(`filename="branchy-chat-lisbon-${day()}.md"`);
    expect(res.body).toBe(
      "# Branchy chat: Lisbon!\n\n" +
        `_Started ${res.body.match(/Started (.+?) ·/)?.[1]} · last active ${res.body.match(/last active (.+?) ·/)?.[1]} · openai / fake-model_\n\n` +
        "## You · 2025-01-02 10:00 UTC\n\nHello there\n\n" +
        "## Guide · fake-model · 2025-01-02 10:02 UTC\n\nHi! This is the second answer\n\n",
    );
    // Another branch shown: its own messages, an incomplete reply said so, the attachment named.
    const other = await seedChat(
      alice.id,
      "Other branch",
      [
        { key: "q", role: "user", content: "Question", extra: { attachments: [{ name: "a.txt", size: 1, content: "a" }] } },
        { key: "x", parent: "q", role: "assistant", content: "Cut short", extra: { status: "incomplete", model: "m1" } },
        { key: "y", parent: "q", role: "assistant", content: "Newest" },
      ],
      "x",
    );
    const md = (await download(alice.client, "markdown", other.chatId)).body;
    expect(md).toContain("## You · 2025-01-02 10:00 UTC\n\nQuestion\n\n_Attached: a.txt_");
    expect(md).toContain("## Assistant · m1 · 2025-01-02 10:01 UTC\n\nCut short\n\n_(This reply is incomplete.)_");
    expect(md).not.toContain("Newest");
    // No shown leaf: the newest message's branch.
    await t.database.db.update(chats).set({ activeLeafId: null }).where(eq(chats.id, other.chatId));
    const newest = (await download(alice.client, "markdown", other.chatId)).body;
    expect(newest).toContain("Newest");
    expect(newest).not.toContain("Cut short");
    await t.database.db.delete(chats).where(eq(chats.id, other.chatId));
  });

  it("exports all chats as Markdown with a heading per chat, never temporary or empty chats", async () => {
    const temporary = await seedChat(alice.id, "Scratch temporary", [{ key: "s", role: "user", content: "scratch" }], undefined, {
      temporary: true,
    });
    const [empty] = await t.database.db.insert(chats).values({ userId: alice.id, title: "Empty chat", aiPlatform: "openai" }).returning();
    const res = await download(alice.client, "markdown");
    expect(res.headers["content-disposition"]).toContain(`filename="chats-${day()}.md"`);
    expect(res.body).toMatch(
      /^# Chat export\n\n_Exported .+ UTC\. Each chat shows the branch that was on screen\._\n\n---\n\n## Branchy chat: Lisbon!\n/,
    );
    expect(res.body).toContain("### Guide · fake-model · 2025-01-02 10:02 UTC\n\nHi! This is the second answer");
    expect(res.body).not.toContain("Scratch temporary");
    expect(res.body).not.toContain("Empty chat");
    expect((await exportJson(alice.client)).chats.map((c) => c.title)).toEqual(["Branchy chat: Lisbon!"]);
    // A temporary chat alone cannot be exported either, and says why.
    const refused = await alice.client.call(chatTransferApi.exportOne, { params: { id: temporary.chatId }, query: { format: "json" } });
    expect(refused.status).toBe(400);
    expect(refused.error.message).toContain("temporary chat");
    await t.database.db.delete(chats).where(eq(chats.id, temporary.chatId));
    await t.database.db.delete(chats).where(eq(chats.id, empty?.id ?? 0));
  });

  it("refuses the signed-out (401), another user's chat (404) and an unknown format (400)", async () => {
    expect((await callApp(t.app, chatTransferApi.exportAll, {})).status).toBe(401);
    expect((await callApp(t.app, chatTransferApi.exportOne, { params: { id: branchy.chatId } })).status).toBe(401);
    const post = await callApp(t.app, chatTransferApi.import, {}, { rawBody: { format: "x" } });
    expect(post.status).toBe(401);
    const theirs = await bob.client.call(chatTransferApi.exportOne, { params: { id: branchy.chatId }, query: { format: "markdown" } });
    expect(theirs.status).toBe(404);
    expect(theirs.error.message).toBe("Chat not found");
    expect((await bob.client.call(chatTransferApi.exportOne, { params: { id: 999999 } })).status).toBe(404);
    // A format the contract does not name: sent raw.
    const format = await alice.client.get("/api/chats/export?format=pdf");
    expect(format.statusCode).toBe(400);
    expect(errorBodySchema.parse(format.json()).message).toBe("Choose json or markdown");
  });

  it("streams the export of many chats a page at a time (250 chats: pages of 100, 100, 50), all of them correct", async () => {
    const many = await registerAndSignIn(t.app);
    const db = t.database.db;
    const made = await db
      .insert(chats)
      .values(Array.from({ length: 250 }, (_, i) => ({ userId: many.user.id, title: `Chat number ${i + 1}`, aiPlatform: "openai" })))
      .returning({ id: chats.id });
    await db.insert(messages).values(
      made.flatMap((chat, i) => [
        { chatId: chat.id, userId: many.user.id, role: "user", content: `question ${i + 1}` },
        { chatId: chat.id, userId: many.user.id, role: "assistant", content: `answer ${i + 1}` },
      ]),
    );
    const sizes: number[] = [];
    for await (const page of chatPages(db, many.user.id, { batchSize: 100 })) sizes.push(page.length);
    expect(sizes).toEqual([100, 100, 50]);

    const res = await download(many.client, "json");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    const file = chatExportFileSchema.parse(res.json());
    expect(file.chats.map((c) => c.title)).toEqual(Array.from({ length: 250 }, (_, i) => `Chat number ${i + 1}`));
    expect(file.chats.every((c, i) => c.messages.map((m) => m.content).join("|") === `question ${i + 1}|answer ${i + 1}`)).toBe(true);
    const md = (await download(many.client, "markdown")).body;
    expect(md.match(/^## Chat number \d+$/gm)).toHaveLength(250);
    expect(md).toContain("## Chat number 250\n");
  });
});

describe("import", () => {
  it("round-trips: another account imports the export and exports the same chats (tree, shown branch, contents)", async () => {
    const original = await exportJson(alice.client);
    const bobBefore = await chatCount(bob.id);
    const aliceBefore = await chatCount(alice.id);
    const res = await importFile(bob.client, JSON.stringify(original));
    expect(res.status, res.response.body).toBe(200);
    expect(res.response.json()).toEqual({ imported: 1, skipped: [] });
    expect(await chatCount(bob.id)).toBe(bobBefore + 1);
    expect(await chatCount(alice.id)).toBe(aliceBefore);
    expect(withoutTimes(await exportJson(bob.client))).toEqual(withoutTimes(original));
    // The shown leaf is a real message of bob's new chat, and the message rows are bob's.
    const [chat] = await t.database.db.select().from(chats).where(eq(chats.userId, bob.id)).orderBy(asc(chats.id));
    const rows = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, chat?.id ?? 0))
      .orderBy(asc(messages.id));
    expect(rows.every((row) => row.userId === bob.id)).toBe(true);
    expect(chat?.activeLeafId).toBe(rows[2]?.id);
    expect(rows[2]?.content).toBe("Hi! This is the second answer");
  });

  it("takes a JSON body as well as a file, and imports into the caller's account whatever the file says", async () => {
    const original = await exportJson(alice.client);
    const carol = await registerAndSignIn(t.app);
    const aliceBefore = await chatCount(alice.id);
    const body = { ...original, userId: alice.id, chats: original.chats.map((c) => ({ ...c, userId: alice.id, id: branchy.chatId })) };
    const res = await importBody(carol.client, body);
    expect(res.status, res.response.body).toBe(200);
    expect(res.response.json()).toEqual({ imported: 1, skipped: [] });
    expect(await chatCount(carol.user.id)).toBe(1);
    expect(await chatCount(alice.id)).toBe(aliceBefore);
    const aliceChat = await t.database.db.select().from(chats).where(eq(chats.id, branchy.chatId));
    expect(aliceChat[0]?.userId).toBe(alice.id);
  });

  it("still imports an export written under the old format name (ai-course-chat-platform.chats)", async () => {
    const original = await exportJson(alice.client);
    expect(original.format).toBe("lumora.chats");
    const dave = await registerAndSignIn(t.app);
    const res = await importFile(dave.client, JSON.stringify({ ...original, format: "ai-course-chat-platform.chats" }));
    expect(res.status, res.response.body).toBe(200);
    expect(res.response.json()).toEqual({ imported: 1, skipped: [] });
    expect(withoutTimes(await exportJson(dave.client))).toEqual(withoutTimes(original));
    // Any other name is still not this app's export.
    const other = await importFile(dave.client, JSON.stringify({ ...original, format: "someone-else.chats" }));
    expect(other.status).toBe(400);
    expect(other.error.message).toMatch(/neither a chat export of this app \(an object with "format": "lumora\.chats"\)/);
  });

  it("titles an untitled ChatGPT conversation from its first user message, as a chat made here is titled", async () => {
    const user = await registerAndSignIn(t.app);
    const node = (id: string, parent: string | null, role: string, text: string, children: string[]) => ({
      id,
      parent,
      children,
      message: {
        id,
        author: { role },
        create_time: 1719000010,
        content: { content_type: "text", parts: [text] },
        status: "finished_successfully",
      },
    });
    const conversation = (title: string | null, question: string) => ({
      title,
      create_time: 1719000000,
      update_time: 1719000100,
      current_node: "a",
      mapping: {
        root: { id: "root", parent: null, children: ["q"], message: null },
        q: node("q", "root", "user", question, ["a"]),
        a: node("a", "q", "assistant", "An answer", []),
      },
    });
    const long = "How do I **roast** a pumpkin so that it caramelises well without drying out in the oven at all?";
    const res = await importFile(
      user.client,
      JSON.stringify([
        conversation(null, "## Best soup for autumn?\nMore detail here"),
        conversation("", long),
        conversation("New chat", "`ls -la` explained"),
        conversation("Named by ChatGPT", "Not the title"),
      ]),
      "conversations.json",
    );
    expect(res.status, res.response.body).toBe(200);
    expect(res.response.json()).toEqual({ imported: 4, skipped: [] });
    const titles = (await exportJson(user.client)).chats.map((c) => c.title).sort();
    expect(titles).toEqual(
      ["Best soup for autumn?", "How do I roast a pumpkin so that it caramelises well...", "ls -la explained", "Named by ChatGPT"].sort(),
    );
  });

  it("imports a ChatGPT conversations.json: titles, visible messages, the branches and the shown leaf", async () => {
    const user = await registerAndSignIn(t.app);
    const res = await importFile(user.client, chatGptSample, "conversations.json");
    expect(res.status, res.response.body).toBe(200);
    expect(res.response.json()).toEqual({
      imported: 2,
      skipped: [{ title: "Only a system prompt", reason: "It has no messages to import." }],
    });

    const file = await exportJson(user.client);
    expect(file.chats.map((c) => c.title)).toEqual(["Weekend in Lisbon", "Pumpkin soup"]);
    const [lisbon, soup] = file.chats;
    expect(lisbon).toMatchObject({
      platform: "openai",
      model: "gpt-4o-mini",
      createdAt: "2024-06-10T06:13:20.123Z",
      updatedAt: "2024-06-10T06:23:20.500Z",
    });
    // System, hidden context and tool nodes are gone; their children hang from the nearest kept message.
    const shape = lisbon?.messages.map((m) => [m.id, m.parentId, m.role, m.content.slice(0, 24), m.model]);
    expect(shape).toEqual([
      [1, null, "user", "Plan a weekend in Lisbon", null],
      [2, 1, "assistant", "Saturday: Belém tower an", "gpt-4o"],
      [3, null, "user", "Plan a weekend in Porto ", null],
      [4, 3, "assistant", "Porto: the Ribeira, port", "gpt-4o"],
      [5, 2, "user", "Which museums open on Mo", null],
      [6, 5, "assistant", "The Gulbenkian opens on ", "gpt-4o-mini"],
    ]);
    expect(lisbon?.activeLeafId).toBe(6);
    expect(lisbon?.messages[0]?.createdAt).toBe("2024-06-10T06:13:30.000Z");
    expect(soup?.messages.map((m) => [m.parentId, m.role, m.content])).toEqual([
      [null, "user", "[An image or file that was not imported]\n\nWhat soup can I make with this pumpkin?"],
      [1, "assistant", "Roast the pumpkin with garlic, then blend it with stock and a little cream."],
    ]);
    const md = (await download(user.client, "markdown")).body;
    expect(md).toContain("Which museums open on Monday?");
    expect(md).not.toContain("Porto");
  });

  it("imports a chat once per account: the same file again (a cut-off import retried, or sent twice at once) adds only what is missing", async () => {
    const user = await registerAndSignIn(t.app);
    expect((await importFile(user.client, chatGptSample, "conversations.json")).data).toMatchObject({ imported: 2 });
    const again = await importFile(user.client, chatGptSample, "conversations.json");
    expect(again.status, again.response.body).toBe(200);
    expect(again.response.json()).toEqual({
      imported: 0,
      skipped: [
        { title: "Weekend in Lisbon", reason: ALREADY_IMPORTED },
        { title: "Pumpkin soup", reason: ALREADY_IMPORTED },
        { title: "Only a system prompt", reason: "It has no messages to import." },
      ],
    });
    expect(await chatCount(user.user.id)).toBe(2);

    // As an import cut off after its first chat leaves it: the missing chat arrives, the other is not doubled.
    const [soup] = await t.database.db
      .select()
      .from(chats)
      .where(and(eq(chats.userId, user.user.id), eq(chats.title, "Pumpkin soup")));
    expect((await user.client.call(chatsApi.remove, { params: { id: Number(soup?.id) } })).status).toBe(204);
    const retried = await importFile(user.client, chatGptSample, "conversations.json");
    expect(retried.data).toMatchObject({ imported: 1, skipped: [{ title: "Weekend in Lisbon", reason: ALREADY_IMPORTED }, {}] });
    expect(await chatCount(user.user.id)).toBe(2);
    const soupMessages = await t.database.db
      .select({ n: count() })
      .from(messages)
      .innerJoin(chats, eq(chats.id, messages.chatId))
      .where(and(eq(chats.userId, user.user.id), eq(chats.title, "Pumpkin soup")));
    expect(soupMessages[0]?.n).toBeGreaterThan(0);

    // Per account: another user imports the same file in full.
    const other = await registerAndSignIn(t.app);
    expect((await importFile(other.client, chatGptSample, "conversations.json")).data).toMatchObject({ imported: 2 });

    // Sent twice at once: each chat arrives once, whichever request stores it.
    const racer = await registerAndSignIn(t.app);
    const both = await Promise.all([0, 1].map(() => importFile(racer.client, chatGptSample, "conversations.json")));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.reduce((sum, r) => sum + r.data.imported, 0)).toBe(2);
    expect(await chatCount(racer.user.id)).toBe(2);
  });

  it("makes imported messages searchable at once", async () => {
    const user = await registerAndSignIn(t.app);
    expect((await importFile(user.client, chatGptSample)).status).toBe(200);
    const search = (client: CookieClient, q: string) => client.call(chatsApi.search, { query: { q } });
    const hits = await search(user.client, "gulbenkian");
    expect(hits.status).toBe(200);
    expect(hits.data).toMatchObject([{ title: "Weekend in Lisbon", snippet: expect.stringContaining("Gulbenkian") }]);
    const byTitle = await search(user.client, "pumpkin");
    expect(byTitle.data.map((h) => h.title)).toEqual(["Pumpkin soup"]);
    // Nobody else finds them.
    expect((await search(bob.client, "gulbenkian")).data).toEqual([]);
  });

  it("refuses malformed files with a message naming the problem, and imports nothing", async () => {
    const user = await registerAndSignIn(t.app);
    const good = (await exportJson(alice.client)).chats[0];
    const cases: { send: () => ReturnType<typeof importBody>; status: number; message: RegExp }[] = [
      {
        send: () => importFile(user.client, "{ not json"),
        status: 400,
        message: /^The file is not valid JSON \(.+\), so nothing was imported/,
      },
      { send: () => importFile(user.client, Buffer.from([0xff, 0xfe, 0x00])), status: 400, message: /not UTF-8 text/ },
      {
        send: () => importFile(user.client, JSON.stringify({ hello: "world" })),
        status: 400,
        message: /neither a chat export of this app .* nor the conversations\.json of a ChatGPT/,
      },
      {
        send: () =>
          importBody(user.client, {
            format: "lumora.chats",
            version: 2,
            exportedAt: new Date().toISOString(),
            chats: [],
          }),
        status: 400,
        message: /version: Only version 1 of this format can be imported/,
      },
      {
        // A good chat first, then a bad one: the whole file is refused.
        send: () =>
          importBody(user.client, {
            format: "lumora.chats",
            version: 1,
            exportedAt: new Date().toISOString(),
            chats: [good, { ...good, messages: [{ ...good?.messages[0], parentId: 7 }] }],
          }),
        status: 400,
        message:
          /^This is not a valid chat export of this app, so nothing was imported\. chats\[1\]\.messages\[0\]\.parentId: Names no message listed before it in this chat; chats\[1\]\.activeLeafId: Names no message of this chat\.$/,
      },
      {
        send: () => importFile(user.client, JSON.stringify([{ title: "x", mapping: { a: { id: "a", message: { author: {} } } } }])),
        status: 400,
        message: /^This is not a valid ChatGPT conversations\.json, so nothing was imported\. \[0\]\.mapping\.a\.message\.author\.role: .+/,
      },
      { send: () => importBody(user.client), status: 415, message: /^Send the file as multipart\/form-data/ },
    ];
    for (const item of cases) {
      const res = await item.send();
      expect(res.status, res.response.body).toBe(item.status);
      expect(res.error.message).toMatch(item.message);
    }
    expect(await chatCount(user.user.id)).toBe(0);
  });

  it("refuses a file over 50 MiB (413) and more chats than an import may hold (400), importing nothing", async () => {
    const user = await registerAndSignIn(t.app);
    const huge = Buffer.alloc(50 * 1024 * 1024 + 10, 0x20);
    const asFile = await importFile(user.client, huge);
    expect(asFile.status).toBe(413);
    expect(asFile.error.message).toBe(
      "The file is larger than 50 MiB, so nothing was imported. Export fewer chats at a time and import each file.",
    );
    const asBody = await user.client.call(chatTransferApi.import, {}, { rawBody: huge, headers: { "content-type": "application/json" } });
    expect(asBody.status).toBe(413);
    expect(asBody.error.message).toContain("larger than 50 MiB");
    // Just under the byte cap is read (then refused here only because it is not JSON).
    const conversation = { title: "t", mapping: {} };
    const tooMany = await importFile(user.client, JSON.stringify(Array.from({ length: 5001 }, () => conversation)));
    expect(tooMany.status).toBe(400);
    expect(tooMany.error.message).toContain("An import can hold at most 5000 chats");
    expect(await chatCount(user.user.id)).toBe(0);
  });

  it("counts every node of a ChatGPT file against its limits, hidden ones included: one over is a 400 naming the limit", async () => {
    const user = await registerAndSignIn(t.app);
    /** `nodes` nodes: a chain of nodes without a message (hidden), then one visible question below them. */
    const conversation = (nodes: number, tag: string) => {
      const mapping: Record<string, unknown> = {};
      for (let i = 0; i < nodes - 1; i++) mapping[`${tag}${i}`] = { id: `${tag}${i}`, parent: i ? `${tag}${i - 1}` : null };
      mapping[`${tag}q`] = {
        id: `${tag}q`,
        parent: `${tag}${nodes - 2}`,
        message: { author: { role: "user" }, content: { content_type: "text", parts: [`question ${tag}`] } },
      };
      return { title: `Chain ${tag}`, create_time: 1719000000, mapping, current_node: `${tag}q` };
    };
    const perChat = IMPORT_LIMITS.maxNodesPerChat;
    const atLimit = await importFile(user.client, JSON.stringify([conversation(perChat, "a")]));
    expect(atLimit.status, atLimit.response.body).toBe(200);
    expect(atLimit.response.json()).toEqual({ imported: 1, skipped: [] });

    const over = await importFile(user.client, JSON.stringify([conversation(perChat + 1, "b")]));
    expect(over.status).toBe(400);
    expect(over.error.message).toBe(
      `This file holds more than one import can, so nothing was imported. [0].mapping: ${IMPORT_LIMIT_MESSAGES.nodesPerChat} (this one has ${perChat + 1}).`,
    );
    // In all: each conversation at its limit, one conversation more than the file's limit allows (the largest
    // file that is allowed is imported in chat-import-load.test.ts).
    const conversations = IMPORT_LIMITS.maxNodes / perChat + 1;
    const tooMany = await importFile(
      user.client,
      JSON.stringify(Array.from({ length: conversations }, (_, i) => conversation(perChat, `m${i}-`))),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.error.message).toBe(
      `This file holds more than one import can, so nothing was imported. ${IMPORT_LIMIT_MESSAGES.nodes} (this one has ${conversations * perChat}). Split it into smaller files and import each.`,
    );
    expect(await chatCount(user.user.id)).toBe(1);
  });

  it("holds this app's export to its limits the same way: a chat of 10,001 messages is a 400 naming the limit", async () => {
    const user = await registerAndSignIn(t.app);
    const chat = (count: number) => ({
      title: `Long chat ${count}`,
      createdAt: "2025-01-02T09:00:00.000Z",
      updatedAt: "2025-01-02T09:00:00.000Z",
      platform: "openai",
      model: null,
      activeLeafId: null,
      messages: Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        parentId: i ? i : null,
        role: i % 2 ? "assistant" : "user",
        content: `message ${i + 1}`,
        status: "complete",
        model: null,
        platform: null,
        personalityName: null,
        createdAt: "2025-01-02T09:00:00.000Z",
        attachments: [],
      })),
    });
    const file = (count: number) =>
      JSON.stringify({ format: "lumora.chats", version: 1, exportedAt: new Date().toISOString(), chats: [chat(count)] });
    const perChat = IMPORT_LIMITS.maxMessagesPerChat;
    const atLimit = await importFile(user.client, file(perChat));
    expect(atLimit.status, atLimit.response.body).toBe(200);
    expect(atLimit.response.json()).toEqual({ imported: 1, skipped: [] });
    const [stored] = await t.database.db.select({ n: count() }).from(messages).where(eq(messages.userId, user.user.id));
    expect(Number(stored?.n)).toBe(perChat);

    const over = await importFile(user.client, file(perChat + 1));
    expect(over.status).toBe(400);
    expect(over.error.message).toBe(
      `This file holds more than one import can, so nothing was imported. chats[0].messages: ${IMPORT_LIMIT_MESSAGES.messagesPerChat} (this one has ${perChat + 1}).`,
    );
    expect(await chatCount(user.user.id)).toBe(1);
  });

  it("a chat that cannot be stored midway leaves nothing behind, the others arrive, and importing again adds it", async () => {
    const user = await registerAndSignIn(t.app);
    const db = t.database.db;
    // Test-only behaviour in the database: a message holding the marker is refused, after the slices before it
    // (at most 50 messages a statement) are in.
    await db.execute(
      sql.raw(`create or replace function test_refuse_import() returns trigger language plpgsql as $$
        begin
          if new.content like '%#refuse-import%' then raise exception 'refused by the test'; end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql.raw("create trigger test_refuse_import before insert on messages for each row execute function test_refuse_import()"),
    );
    const node = (id: string, parent: string | null, text: string) => ({
      id,
      parent,
      message: {
        author: { role: "user" },
        content: { content_type: "text", parts: [text] },
        create_time: 1719000000 + Number(id.slice(1)),
      },
    });
    const long = Object.fromEntries(
      Array.from({ length: 250 }, (_, i) => [
        `n${i}`,
        node(`n${i}`, i ? `n${i - 1}` : null, i === 220 ? "late #refuse-import" : `line ${i}`),
      ]),
    );
    const file = JSON.stringify([
      { title: "Cut midway", create_time: 1719000000, mapping: long },
      { title: "Short and fine", create_time: 1719000000, mapping: { s0: node("s0", null, "fine") } },
    ]);
    const first = await importFile(user.client, file);
    expect(first.status, first.response.body).toBe(200);
    expect(first.response.json()).toEqual({
      imported: 1,
      skipped: [{ title: "Cut midway", reason: "It could not be stored. Try importing the file again." }],
    });
    // Nothing of it is left, not even hidden: no row, no message.
    const rows = await db.select({ title: chats.title, temporary: chats.temporary }).from(chats).where(eq(chats.userId, user.user.id));
    expect(rows).toEqual([{ title: "Short and fine", temporary: false }]);
    const [left] = await db.select({ n: count() }).from(messages).where(eq(messages.userId, user.user.id));
    expect(Number(left?.n)).toBe(1);

    await db.execute(sql.raw("drop trigger test_refuse_import on messages"));
    const again = await importFile(user.client, file);
    expect(again.response.json()).toEqual({ imported: 1, skipped: [{ title: "Short and fine", reason: ALREADY_IMPORTED }] });
    const [all] = await db.select({ n: count() }).from(messages).where(eq(messages.userId, user.user.id));
    expect(Number(all?.n)).toBe(251);
  });

  it("cleans NUL and broken Unicode out of a file, and refuses them in a JSON body (the API's text rule)", async () => {
    const user = await registerAndSignIn(t.app);
    const conversation = {
      title: "Broken \u0000text",
      create_time: 1719000000,
      mapping: {
        a: {
          id: "a",
          message: { author: { role: "user" }, content: { content_type: "text", parts: ["nul\u0000 and \ud800lone"] } },
          parent: null,
          children: [],
        },
      },
      current_node: "a",
    };
    const res = await importFile(user.client, JSON.stringify([conversation]));
    expect(res.status, res.response.body).toBe(200);
    const [chat] = (await exportJson(user.client)).chats;
    expect(chat?.title).toBe("Broken text");
    expect(chat?.messages[0]?.content).toBe("nul and lone");
    const body = await importBody(user.client, [conversation]);
    expect(body.status).toBe(400);
    expect(body.error.message).toBe(BAD_TEXT);
    const rows = await t.database.db
      .select({ n: count() })
      .from(chats)
      .where(and(eq(chats.userId, user.user.id)));
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("is described by its contract", () => {
    expect(chatTransferApi.import).toMatchObject({ method: "POST", path: "/api/chats/import", upload: true });
  });
});
