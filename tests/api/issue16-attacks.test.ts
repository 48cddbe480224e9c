// Issue 16's endpoints probed as an attacker would: other users' ids, extra fields, hostile import files, export
// injection, and ways around the usage allowances. Each case checks the refused request and the allowed one.
import { count, eq, inArray } from "drizzle-orm";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString as textOfNode } from "mdast-util-to-string";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatFolders, chats, messages } from "../../src/server/db/schema/index.js";
import { messagePages, shownBranchPages } from "../../src/server/modules/chat-transfer/chat-pages.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { chatFoldersApi, FOLDER_MESSAGES, MAX_FOLDERS_PER_USER } from "../../src/shared/contracts/chat-folders.js";
import { chatExportFileSchema, chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import { messagesSpentMessage, planAllowancesApi, usageApi } from "../../src/shared/contracts/usage.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";
import { multipartFile } from "../helpers/multipart.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
type Member = { client: CookieClient; id: number };

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp({ env: { AI_MAX_CONCURRENT_PER_USER: "10" } });
  admin = (await registerAndSignIn(t.app)).client;
  await pointPlatformAt(admin, "openai", fake);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function member(): Promise<Member> {
  const signed = await registerAndSignIn(t.app);
  return { client: signed.client, id: signed.user.id };
}

const noAllowances = {
  free: { monthlyTokens: null, messagesPerDay: null },
  earlyAccess: { monthlyTokens: null, messagesPerDay: null },
};

async function send(client: CookieClient, chatId: number, content = "hello there") {
  const res = await client.call(chatsApi.reply, { params: { id: chatId }, body: { content } });
  expect(res.status, res.response.body.slice(0, 300)).toBe(200);
  return parseEvents(res.response.body);
}

async function shown(client: CookieClient, chatId: number) {
  const res = await client.call(chatsApi.messages, { params: { id: chatId } });
  expect(res.status).toBe(200);
  return res.data.items;
}

/** The first page of a user's chats. */
const chatsOf = async (client: CookieClient) => (await client.ok(chatsApi.list, {})).items;

/** A chat of one exchange: q1, a1. */
async function oneExchange(client: CookieClient) {
  const chat = await newChat(client);
  await send(client, chat.id, "first question");
  const [q1, a1] = await shown(client, chat.id);
  if (!q1 || !a1) throw new Error("expected two messages");
  return { chatId: chat.id, q1, a1 };
}

function importFile(client: CookieClient, bytes: Uint8Array | string, name = "chats.json") {
  const multipart = multipartFile("file", name, "application/json", typeof bytes === "string" ? Buffer.from(bytes) : bytes);
  return client.call(chatTransferApi.import, {}, { multipart });
}

/** An import sent as a JSON body (the route reads one too), not as a multipart upload. */
function importJson(client: CookieClient, file: unknown) {
  return client.call(chatTransferApi.import, {}, { rawBody: file });
}

const chatCount = async (userId: number) =>
  Number((await t.database.db.select({ n: count() }).from(chats).where(eq(chats.userId, userId)))[0]?.n);

/** Every message of a user's chats, with its parent's chat (null for a root). */
async function parentsOf(userId: number) {
  const rows = await t.database.db
    .select({ id: messages.id, chatId: messages.chatId, parentId: messages.parentId, userId: messages.userId })
    .from(messages)
    .where(eq(messages.userId, userId));
  const parents = rows.map((row) => row.parentId).filter((id): id is number => id !== null);
  const parentRows = parents.length
    ? await t.database.db.select({ id: messages.id, chatId: messages.chatId }).from(messages).where(inArray(messages.id, parents))
    : [];
  const chatOf = new Map(parentRows.map((row) => [row.id, row.chatId]));
  return rows.map((row) => ({ ...row, parentChatId: row.parentId === null ? null : (chatOf.get(row.parentId) ?? "missing") }));
}

/** The text of the Markdown headings of one level, up to the first " · " (who wrote the turn). */
function headings(markdown: string, depth: number): string[] {
  return fromMarkdown(markdown)
    .children.filter((child) => child.type === "heading" && child.depth === depth)
    .map((child) => textOfNode(child).split(" · ")[0] ?? "");
}

const conversation = (mapping: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  title: "Hostile",
  create_time: 1719000000,
  mapping,
  ...extra,
});
const node = (id: string, parent: string | null, role: string, text: string, at = 1719000000) => ({
  id,
  parent,
  children: [],
  message: { author: { role }, content: { content_type: "text", parts: [text] }, create_time: at },
});

describe("other users' ids answer 404 and change nothing", () => {
  it("edit, branch, messages, export: another user's chat, or a message of another user's chat inside one's own", async () => {
    const alice = await member();
    const bob = await member();
    const mine = await oneExchange(alice.client);
    const theirs = await oneExchange(bob.client);

    // Bob's message id used inside Alice's own chat.
    const edit = await alice.client.call(chatsApi.editMessage, {
      params: { id: mine.chatId, messageId: theirs.q1.id },
      body: { content: "mine now" },
    });
    expect(edit.status).toBe(404);
    const branch = await alice.client.call(chatsApi.switchBranch, { params: { id: mine.chatId }, body: { messageId: theirs.a1.id } });
    expect(branch.status).toBe(404);
    const page = await alice.client.call(chatsApi.messages, { params: { id: mine.chatId }, query: { before: String(theirs.a1.id) } });
    expect(page.status).toBe(200);
    expect(page.data.items).toEqual([]);
    // Bob's chat with Alice's session.
    expect((await alice.client.call(chatsApi.messages, { params: { id: theirs.chatId } })).status).toBe(404);
    expect(
      (await alice.client.call(chatTransferApi.exportOne, { params: { id: theirs.chatId }, query: { format: "markdown" } })).status,
    ).toBe(404);
    expect(
      (await alice.client.call(chatsApi.switchBranch, { params: { id: theirs.chatId }, body: { messageId: theirs.q1.id } })).status,
    ).toBe(404);
    expect((await alice.client.call(chatsApi.addMessage, { params: { id: theirs.chatId }, body: { content: "hi" } })).status).toBe(404);
    // Bob's chat is as it was; the allowed case works for Bob.
    expect((await shown(bob.client, theirs.chatId)).map((m) => m.id)).toEqual([theirs.q1.id, theirs.a1.id]);
    expect(
      (await bob.client.call(chatsApi.switchBranch, { params: { id: theirs.chatId }, body: { messageId: theirs.q1.id } })).status,
    ).toBe(200);
  });

  it("folders: another user's folder in a move, a list, a search, a rename or a delete", async () => {
    const alice = await member();
    const bob = await member();
    const mine = await oneExchange(alice.client);
    const theirs = await oneExchange(bob.client);
    const bobFolder = await bob.client.ok(chatFoldersApi.create, { body: { name: "Bob's" } });
    expect((await bob.client.call(chatsApi.update, { params: { id: theirs.chatId }, body: { folderId: bobFolder.id } })).status).toBe(200);

    const move = await alice.client.call(chatsApi.update, { params: { id: mine.chatId }, body: { folderId: bobFolder.id } });
    expect(move.status).toBe(404);
    expect(move.error.message).toBe("Folder not found");
    expect((await alice.client.call(chatsApi.list, { query: { folderId: String(bobFolder.id) } })).status).toBe(404);
    expect((await alice.client.call(chatsApi.search, { query: { q: "first", folderId: String(bobFolder.id) } })).status).toBe(404);
    expect((await alice.client.call(chatFoldersApi.rename, { params: { id: bobFolder.id }, body: { name: "Alice's now" } })).status).toBe(
      404,
    );
    expect((await alice.client.call(chatFoldersApi.remove, { params: { id: bobFolder.id }, query: { chats: "delete" } })).status).toBe(404);
    // Bob's folder and chat are untouched; Alice's chat is in no folder.
    const [folder] = await bob.client.ok(chatFoldersApi.list, {});
    expect(folder).toMatchObject({ name: "Bob's", chatCount: 1 });
    expect((await alice.client.ok(chatsApi.get, { params: { id: mine.chatId } })).folderId).toBeNull();
    // Moving Bob's chat into Alice's own folder (with Alice's session) is a 404 too.
    const aliceFolder = await alice.client.ok(chatFoldersApi.create, { body: { name: "Alice's" } });
    expect((await alice.client.call(chatsApi.update, { params: { id: theirs.chatId }, body: { folderId: aliceFolder.id } })).status).toBe(
      404,
    );
    expect((await bob.client.ok(chatsApi.get, { params: { id: theirs.chatId } })).folderId).toBe(bobFolder.id);
  });
});

describe("admin endpoints of issue 16", () => {
  it("plan allowances and the users' plan usage: admins only (member 403, signed out 401), and a refused change changes nothing", async () => {
    const user = await member();
    const visitor = new CookieClient(t.app);
    const limits = { free: { monthlyTokens: 1, messagesPerDay: 1 }, earlyAccess: { monthlyTokens: 1, messagesPerDay: 1 } };
    for (const [client, status] of [
      [user.client, 403],
      [visitor, 401],
    ] as const) {
      expect((await client.call(planAllowancesApi.get, {})).status).toBe(status);
      expect((await client.call(planAllowancesApi.update, { body: limits })).status).toBe(status);
      expect((await client.call(adminUsersApi.list, {})).status).toBe(status);
    }
    expect(await admin.ok(planAllowancesApi.get, {})).toEqual(noAllowances);
    // Extra plans or fields are not stored; the admin's own change is.
    const saved = await admin.call(
      planAllowancesApi.update,
      { body: limits },
      { rawBody: { ...limits, admin: { monthlyTokens: 5, messagesPerDay: 5 }, role: "admin" } },
    );
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual(limits);
    const users = await admin.call(adminUsersApi.list, {});
    expect(users.status).toBe(200);
    expect(users.data.items.find((u) => u.id === user.id)?.planUsage).toEqual({
      tokensThisMonth: 0,
      monthlyTokens: 1,
      messagesToday: 0,
      messagesPerDay: 1,
    });
    await admin.ok(planAllowancesApi.update, { body: noAllowances });
  });
});

describe("extra fields cannot set an owner, a role or counts", () => {
  it("a chat PATCH, a folder create and an import ignore userId, role, plan and token fields", async () => {
    const alice = await member();
    const bob = await member();
    const mine = await oneExchange(alice.client);
    const patch = await alice.client.call(
      chatsApi.update,
      { params: { id: mine.chatId }, body: { title: "Renamed" } },
      { rawBody: { title: "Renamed", userId: bob.id, user_id: bob.id, activeLeafId: 1, temporary: true, role: "admin" } },
    );
    expect(patch.status).toBe(200);
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, mine.chatId));
    expect(row).toMatchObject({ userId: alice.id, title: "Renamed", temporary: false, activeLeafId: mine.a1.id });

    const folder = await alice.client.call(
      chatFoldersApi.create,
      { body: { name: "Mine" } },
      { rawBody: { name: "Mine", userId: bob.id, id: 1 } },
    );
    expect(folder.status).toBe(201);
    const [folderRow] = await t.database.db.select().from(chatFolders).where(eq(chatFolders.id, folder.data.id));
    expect(folderRow?.userId).toBe(alice.id);

    const file = {
      format: "ai-course-chat-platform.chats",
      version: 1,
      exportedAt: "2025-01-02T10:00:00.000Z",
      userId: bob.id,
      chats: [
        {
          title: "Smuggled",
          userId: bob.id,
          id: mine.chatId,
          folderId: 1,
          createdAt: "2025-01-02T09:00:00.000Z",
          updatedAt: "2025-01-02T09:05:00.000Z",
          platform: "openai",
          model: null,
          activeLeafId: null,
          messages: [
            {
              id: mine.q1.id,
              parentId: null,
              role: "user",
              content: "hi",
              status: "complete",
              model: null,
              platform: null,
              personalityName: null,
              createdAt: "2025-01-02T09:00:00.000Z",
              attachments: [],
              userId: bob.id,
              chatId: mine.chatId,
              inputTokens: 1_000_000,
              outputTokens: 1_000_000,
            },
          ],
        },
      ],
    };
    const res = await importJson(alice.client, file);
    expect(res.status, res.response.body).toBe(200);
    expect(res.data).toEqual({ imported: 1, skipped: [] });
    expect(await chatCount(bob.id)).toBe(0);
    const imported = await t.database.db.select().from(messages).where(eq(messages.content, "hi"));
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({ userId: alice.id, inputTokens: null, outputTokens: null });
    expect(imported[0]?.id).not.toBe(mine.q1.id);
    expect(imported[0]?.chatId).not.toBe(mine.chatId);
  });
});

describe("hostile import files", () => {
  it("prototype keys in a ChatGPT mapping pollute nothing and answer no 5xx; the other messages are imported", async () => {
    const user = await member();
    // Written by hand: JSON.stringify would not keep a "__proto__" key.
    const file = `[{"title":"Hostile","create_time":1719000000,"current_node":"hasOwnProperty","mapping":{
      "__proto__": ${JSON.stringify(node("__proto__", null, "user", "proto question"))},
      "constructor": ${JSON.stringify(node("constructor", null, "user", "constructor question", 1719000001))},
      "hasOwnProperty": ${JSON.stringify(node("hasOwnProperty", "constructor", "assistant", "own answer", 1719000002))},
      "toString": ${JSON.stringify(node("toString", "__proto__", "assistant", "string answer", 1719000003))}
    }}]`;
    const res = await importFile(user.client, file);
    expect(res.status, res.response.body).toBe(200);
    expect(res.data).toEqual({ imported: 1, skipped: [] });
    for (const key of ["parent", "message", "id", "children"]) expect(({} as Record<string, unknown>)[key]).toBeUndefined();
    const [chat] = await chatsOf(user.client);
    expect((await shown(user.client, chat?.id ?? 0)).map((m) => m.content)).toEqual(["constructor question", "own answer"]);
    // As a JSON body, the prototype key is refused by the body parser (400), and nothing more is imported.
    const body = await user.client
      .call(chatTransferApi.import, {}, { rawBody: file, headers: { "content-type": "application/json" } })
      .then((called) => called.response);
    expect(body.statusCode).toBe(400);
    expect(await chatCount(user.id)).toBe(1);
  });

  it("loops, self-parents, a child listed before its parent and a current_node not in the mapping", async () => {
    const user = await member();
    const file = [
      // A loop of two kept messages and a self-parent: they cannot be placed, the chat is skipped.
      conversation({ a: node("a", "b", "user", "loop a"), b: node("b", "a", "assistant", "loop b"), c: node("c", "c", "user", "self") }),
      // The child is listed first and is older than its parent: parents still come first.
      conversation(
        {
          child: node("child", "root", "assistant", "the answer", 1719000000),
          root: node("root", null, "user", "the question", 1719000500),
        },
        { current_node: "not-there", title: "Out of order" },
      ),
    ];
    const res = await importFile(user.client, JSON.stringify(file));
    expect(res.status, res.response.body).toBe(200);
    expect(res.data).toEqual({ imported: 1, skipped: [{ title: "Hostile", reason: "It has no messages to import." }] });
    const [chat] = await chatsOf(user.client);
    expect(chat?.title).toBe("Out of order");
    expect((await shown(user.client, chat?.id ?? 0)).map((m) => m.content)).toEqual(["the question", "the answer"]);
    for (const row of await parentsOf(user.id)) expect([null, row.chatId]).toContain(row.parentChatId);
  });

  it("parent ids naming other users' rows are never used: links stay inside the imported chat", async () => {
    const alice = await member();
    const bob = await member();
    const theirs = await oneExchange(bob.client);
    const res = await importFile(
      alice.client,
      JSON.stringify([
        conversation({
          x: node("x", String(theirs.a1.id), "user", "hang me under Bob"),
          [String(theirs.q1.id)]: node(String(theirs.q1.id), String(theirs.a1.id), "assistant", "reply"),
        }),
      ]),
    );
    expect(res.status, res.response.body).toBe(200);
    for (const row of await parentsOf(alice.id)) expect([null, row.chatId]).toContain(row.parentChatId);
    expect((await shown(bob.client, theirs.chatId)).map((m) => m.id)).toEqual([theirs.q1.id, theirs.a1.id]);
    const ours = {
      format: "ai-course-chat-platform.chats",
      version: 1,
      exportedAt: "2025-01-02T10:00:00.000Z",
      chats: [
        {
          title: "t",
          createdAt: "2025-01-02T09:00:00.000Z",
          updatedAt: "2025-01-02T09:05:00.000Z",
          platform: "openai",
          model: null,
          activeLeafId: theirs.a1.id,
          messages: [
            {
              id: 1,
              parentId: theirs.a1.id,
              role: "user",
              content: "under Bob",
              status: "complete",
              model: null,
              platform: null,
              personalityName: null,
              createdAt: "2025-01-02T09:00:00.000Z",
              attachments: [],
            },
          ],
        },
      ],
    };
    const refused = await importJson(alice.client, ours);
    expect(refused.status).toBe(400);
    expect(refused.error.message).toContain("chats[0].messages[0].parentId: Names no message listed before it in this chat");
  });

  it("a ChatGPT text or title cut at its limit never ends in half an emoji", async () => {
    const user = await member();
    // "a" then emoji: every high surrogate sits at an odd index, where both limits (500,000 and 200) cut.
    const text = `a${"\u{1F600}".repeat(260_000)}`;
    const res = await importFile(
      user.client,
      JSON.stringify([conversation({ a: node("a", null, "user", text) }, { title: `a${"\u{1F600}".repeat(150)}` })]),
    );
    expect(res.data).toEqual({ imported: 1, skipped: [] });
    const [chat] = await chatsOf(user.client);
    const [message] = await shown(user.client, chat?.id ?? 0);
    for (const [value, max] of [
      [chat?.title ?? "", 200],
      [message?.content ?? "", 500_000],
    ] as const) {
      expect(value.length).toBe(max - 1);
      expect(value.endsWith("\u{1F600}")).toBe(true);
      expect(value).not.toContain("\uFFFD");
    }
  });

  it("a BOM is read, a second file or a text field named file is refused, a deep or wide tree imports", async () => {
    const user = await member();
    const chain = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [
        `n${i}`,
        node(`n${i}`, i === 0 ? null : `n${i - 1}`, i % 2 ? "assistant" : "user", `m${i}`, 1719000000 + i),
      ]),
    );
    const bom = await importFile(user.client, `\uFEFF${JSON.stringify([conversation(chain, { title: "Deep" })])}`);
    expect(bom.status, bom.response.body).toBe(200);
    expect(bom.data.imported).toBe(1);
    const [chat] = await chatsOf(user.client);
    const page = await shown(user.client, chat?.id ?? 0);
    expect(page).toHaveLength(200);
    expect(page.at(-1)?.content).toBe("m2999");

    // Multipart bodies written by hand (a second file, a text field named file): sent raw.
    const boundary = "----attack";
    const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
    const twoFiles =
      part('Content-Disposition: form-data; name="file"; filename="a.json"\r\nContent-Type: application/json', "[]") +
      part('Content-Disposition: form-data; name="file"; filename="b.json"\r\nContent-Type: application/json', "[]") +
      `--${boundary}--\r\n`;
    const two = await user.client
      .call(
        chatTransferApi.import,
        {},
        { multipart: { payload: twoFiles, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } },
      )
      .then((called) => called.response);
    expect(two.statusCode).toBe(413);
    expect(two.json().message).toBe("The upload has too many parts. Send one .json file and nothing else.");
    // One file after a text field is read as usual.
    const withField =
      part('Content-Disposition: form-data; name="note"', "hello") +
      part(
        'Content-Disposition: form-data; name="file"; filename="a.json"\r\nContent-Type: application/json',
        JSON.stringify([conversation({ a: node("a", null, "user", "with a field") })]),
      ) +
      `--${boundary}--\r\n`;
    const one = await user.client
      .call(
        chatTransferApi.import,
        {},
        { multipart: { payload: withField, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } },
      )
      .then((called) => called.response);
    expect(one.json()).toEqual({ imported: 1, skipped: [] });
    const fieldOnly = `${part('Content-Disposition: form-data; name="file"', "[]")}--${boundary}--\r\n`;
    const field = await user.client
      .call(
        chatTransferApi.import,
        {},
        { multipart: { payload: fieldOnly, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } } },
      )
      .then((called) => called.response);
    expect(field.statusCode).toBe(400);
    expect(field.json().message).toBe("Choose a .json file to import.");
  });
});

describe("export injection", () => {
  it("a title with CR/LF and quotes cannot break the headers or the Markdown headings", async () => {
    const user = await member();
    const mine = await oneExchange(user.client);
    const title = 'Evil"\r\nSet-Cookie: sid=x; \r\n# Forged heading <script>alert(1)</script>';
    // The API refuses control characters in a title? If it stores it, the export must still be safe.
    const renamed = await user.client.call(chatsApi.update, { params: { id: mine.chatId }, body: { title } });
    if (renamed.status !== 200) await t.database.db.update(chats).set({ title }).where(eq(chats.id, mine.chatId));
    for (const format of ["markdown", "json"] as const) {
      const { status, response: res } = await user.client.call(chatTransferApi.exportOne, {
        params: { id: mine.chatId },
        query: { format },
      });
      expect(status).toBe(200);
      expect(res.headers["set-cookie"]).toBeUndefined();
      expect(String(res.headers["content-disposition"])).toMatch(
        /^attachment; filename="[a-z0-9-]+\.(md|json)"; filename\*=UTF-8''[a-z0-9-]+\.(md|json)$/,
      );
      if (format === "markdown")
        expect(res.body.split("\n")[0]).toBe('# Evil" Set-Cookie: sid=x; # Forged heading <script>alert(1)</script>');
      else expect(chatExportFileSchema.parse(res.json()).chats[0]?.title).toBe(title);
    }
  });

  it("a message, a model or a name from a file cannot swallow or forge the rest of the Markdown transcript", async () => {
    const user = await member();
    const chat = await newChat(user.client);
    await send(user.client, chat.id, "look:\n```js\nconst open = true;");
    await send(user.client, chat.id, "<!-- hide everything after me");
    await send(user.client, chat.id, "<script>\nlet x = 1;");
    await send(user.client, chat.id, "the last question");
    const { status, response: res } = await user.client.call(chatTransferApi.exportOne, {
      params: { id: chat.id },
      query: { format: "markdown" },
    });
    expect(status).toBe(200);
    // Every turn is still a heading of the transcript: 4 questions, 4 answers.
    expect(headings(res.body, 2)).toEqual(Array.from({ length: 4 }, () => ["You", "Assistant"]).flat());
    expect(res.body).toContain("const open = true;\n```\n\n## Assistant");
    expect(res.body).toContain("\n\\<!-- hide everything after me\n");

    const file = {
      format: "ai-course-chat-platform.chats",
      version: 1,
      exportedAt: "2025-01-02T10:00:00.000Z",
      chats: [
        {
          title: "Imported",
          createdAt: "2025-01-02T09:00:00.000Z",
          updatedAt: "2025-01-02T09:05:00.000Z",
          platform: "openai",
          model: "m\n\n```",
          activeLeafId: null,
          messages: [
            { id: 1, parentId: null, role: "user", content: "q", attachments: [{ name: "a\n\n<!--", size: 1, content: "x" }] },
            { id: 2, parentId: 1, role: "assistant", content: "a", model: "x\n\n~~~", personalityName: "Guide\n\n## You" },
            { id: 3, parentId: 2, role: "user", content: "still here" },
          ].map((m) => ({
            status: "complete",
            model: null,
            platform: null,
            personalityName: null,
            createdAt: "2025-01-02T09:00:00.000Z",
            attachments: [],
            ...m,
          })),
        },
      ],
    };
    const imported = await importFile(user.client, JSON.stringify(file));
    expect(imported.data).toEqual({ imported: 1, skipped: [] });
    const all = (await user.client.call(chatTransferApi.exportAll, { query: { format: "markdown" } })).response;
    const turns = headings(all.body, 3);
    expect(turns.slice(-3)).toEqual(["You", "Guide ## You", "You"]);
    // The two chats, oldest first: the one sent above (titled from its first message), then the import.
    expect(headings(all.body, 2)).toEqual(["look:", "Imported"]);
  });
});

describe("usage allowances cannot be gone around", () => {
  it("a user message stored with POST /messages counts against the messages per day like a send; an assistant one does not; a delete gives nothing back", async () => {
    const user = await member();
    const put1 = await admin.call(planAllowancesApi.update, {
      body: { free: { monthlyTokens: null, messagesPerDay: 1 }, earlyAccess: { monthlyTokens: null, messagesPerDay: null } },
    });
    expect(put1.status).toBe(200);
    try {
      const chat = await newChat(user.client);
      const params = { id: chat.id };
      const first = await user.client.call(chatsApi.addMessage, { params, body: { content: "stored by the client" } });
      expect(first.status).toBe(201);
      expect((await user.client.ok(usageApi.mine, {})).messages.used).toBe(1);
      const second = await user.client.call(chatsApi.addMessage, { params, body: { content: "one more" } });
      expect(second.status).toBe(429);
      expect(second.error.message).toBe(messagesSpentMessage(1));
      const sent = await user.client.call(chatsApi.reply, { params, body: { content: "and a send" } });
      expect(sent.status).toBe(429);
      // An assistant message stored by the client is not a message sent.
      const answer = await user.client.call(chatsApi.addMessage, { params, body: { content: "an answer", role: "assistant" } });
      expect(answer.status).toBe(201);
      // Deleting the chat gives nothing back.
      expect((await user.client.call(chatsApi.remove, { params })).status).toBe(204);
      expect((await user.client.ok(usageApi.mine, {})).messages.used).toBe(1);
    } finally {
      await admin.ok(planAllowancesApi.update, { body: noAllowances });
    }
  });
});

describe("imported values the API would not accept", () => {
  const exportFile = (chat: Record<string, unknown>, messageList: Record<string, unknown>[]) => ({
    format: "ai-course-chat-platform.chats",
    version: 1,
    exportedAt: "2025-01-02T10:00:00.000Z",
    chats: [
      {
        title: "Odd",
        createdAt: "2025-01-02T09:00:00.000Z",
        updatedAt: "2025-01-02T09:05:00.000Z",
        platform: "openai",
        model: null,
        activeLeafId: null,
        ...chat,
        messages: messageList.map((m, i) => ({
          id: i + 1,
          parentId: i === 0 ? null : i,
          role: i % 2 ? "assistant" : "user",
          content: `m${i}`,
          status: "complete",
          model: null,
          platform: null,
          personalityName: null,
          createdAt: "2025-01-02T09:00:00.000Z",
          attachments: [],
          ...m,
        })),
      },
    ],
  });

  it("an unknown or empty platform from a file: a send or a regenerate in that chat is a clear 4xx, never a 5xx", async () => {
    const user = await member();
    for (const [platform, messagePlatform] of [
      ["", ""],
      ["no such platform!", "  "],
    ]) {
      const res = await importJson(user.client, exportFile({ platform, model: "" }, [{}, { platform: messagePlatform, model: "" }]));
      expect(res.data).toEqual({ imported: 1, skipped: [] });
    }
    for (const chat of await chatsOf(user.client)) {
      const params = { id: chat.id };
      const regenerate = await user.client.call(chatsApi.regenerate, { params, body: {} });
      expect(regenerate.status, regenerate.response.body).toBeLessThan(500);
      expect(regenerate.status).toBeGreaterThanOrEqual(400);
      const reply = await user.client.call(chatsApi.reply, { params, body: { content: "hello" } });
      expect(reply.status, reply.response.body).toBeLessThan(500);
      // Naming a platform that exists works.
      const fixed = await user.client.call(chatsApi.reply, { params, body: { content: "hello", platformSlug: "openai" } });
      expect(fixed.status, fixed.response.body).toBe(200);
    }
  });

  it("chats dated before 1970 or after 2286 page like any other in the sidebar", async () => {
    const user = await member();
    const dates = ["1900-01-01T00:00:00Z", "1899-01-01T00:00:00Z", "9999-12-31T00:00:00Z", "2025-01-02T09:05:00.000Z"];
    for (const updatedAt of dates) {
      const res = await importJson(user.client, exportFile({ updatedAt, title: updatedAt.slice(0, 4) }, [{}]));
      expect(res.data).toEqual({ imported: 1, skipped: [] });
    }
    const titles: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await user.client.call(chatsApi.list, { query: { limit: 1, cursor } });
      expect(res.status, res.response.body).toBe(200);
      titles.push(...res.data.items.map((c) => c.title));
      const next = res.data.nextCursor;
      if (!next) break;
      cursor = next;
    }
    expect(titles).toEqual(["9999", "2025", "1900", "1899"]);
    // A cursor at the ends of the range reads (nothing there); beyond them it is a 400, never a 5xx.
    for (const cursor of ["1000000000000000000_1", "-100000000000000000_1"]) {
      expect((await user.client.call(chatsApi.list, { query: { cursor } })).status).toBe(200);
    }
    for (const cursor of ["1000000000000000001_1", "-100000000000000001_1", "9999999999999999999_1", "--1_1", "1_99999999999"]) {
      const res = await user.client.call(chatsApi.list, { query: { cursor } });
      expect(res.status).toBe(400);
      expect(res.error.message).toBe("Invalid cursor");
    }
  });
});

describe("export memory", () => {
  it("reads messages a page bounded in bytes at a time, not only in rows (a huge message comes alone)", async () => {
    const user = await member();
    const sizes = [3000, 3000, 3000, 20_000, 3000, 3000, 3000];
    const conversationOf = (texts: string[]) =>
      conversation(
        Object.fromEntries(
          texts.map((text, i) => [`k${i}`, node(`k${i}`, i ? `k${i - 1}` : null, i % 2 ? "assistant" : "user", text, 1719000000 + i)]),
        ),
      );
    const texts = sizes.map((size, i) => String(i).repeat(size));
    const res = await importFile(user.client, JSON.stringify([conversationOf(texts), conversationOf(texts.slice(0, 3))]));
    expect(res.data).toEqual({ imported: 2, skipped: [] });
    const chatIds = (await chatsOf(user.client)).map((c) => c.id).sort((a, b) => a - b);
    // Each stored message is its text plus "[]" (no attached files).
    const budget = 7000;
    for (const pages of [
      messagePages(t.database.db, chatIds, { pageBytes: budget }),
      shownBranchPages(t.database.db, chatIds, { pageBytes: budget }),
    ]) {
      const seen: string[] = [];
      for await (const page of pages) {
        const bytes = page.reduce((sum, m) => sum + m.content.length + 2, 0);
        expect(page.length === 1 || bytes <= budget, `a page of ${page.length} messages, ${bytes} bytes`).toBe(true);
        seen.push(...page.map((m) => m.content));
      }
      expect(seen).toEqual([...texts, ...texts.slice(0, 3)]);
    }
    // Pages of a few rows still end where the rows end.
    const small: number[] = [];
    for await (const page of messagePages(t.database.db, chatIds, { batchSize: 2 })) small.push(page.length);
    expect(small).toEqual([2, 2, 2, 2, 2]);
  });
});

describe("races", () => {
  const statuses = (list: { status: number }[]) => list.map((r) => r.status).sort();

  it(`parallel folder creates stop exactly at ${MAX_FOLDERS_PER_USER}`, async () => {
    const user = await member();
    await t.database.db
      .insert(chatFolders)
      .values(Array.from({ length: MAX_FOLDERS_PER_USER - 3 }, (_, i) => ({ userId: user.id, name: `f${i}` })));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => user.client.call(chatFoldersApi.create, { body: { name: `race ${i}` } })),
    );
    expect(statuses(results)).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) expect(res.error.message).toBe(FOLDER_MESSAGES.tooMany);
    expect((await user.client.ok(chatFoldersApi.list, {})).length).toBe(MAX_FOLDERS_PER_USER);
  });

  it("a folder deleted while a chat moves into it: the chat is never lost nor left pointing at it", async () => {
    const user = await member();
    for (let round = 0; round < 3; round++) {
      const { chatId } = await oneExchange(user.client);
      const folder = await user.client.ok(chatFoldersApi.create, { body: { name: `doomed ${round}` } });
      const [move, remove] = await Promise.all([
        user.client.call(chatsApi.update, { params: { id: chatId }, body: { folderId: folder.id } }),
        user.client.call(chatFoldersApi.remove, { params: { id: folder.id }, query: { chats: "move" } }),
      ]);
      expect(remove.status).toBe(204);
      expect([200, 404]).toContain(move.status);
      const chat = await user.client.call(chatsApi.get, { params: { id: chatId } });
      expect(chat.status).toBe(200);
      expect(chat.data.folderId).toBeNull();
    }
  });

  it("a folder deleted with its chats while a reply is being written in one: the reply stops, nothing is left", async () => {
    const user = await member();
    const { chatId } = await oneExchange(user.client);
    const folder = await user.client.ok(chatFoldersApi.create, { body: { name: "Busy" } });
    expect((await user.client.call(chatsApi.update, { params: { id: chatId }, body: { folderId: folder.id } })).status).toBe(200);
    const streaming = user.client.call(chatsApi.reply, { params: { id: chatId }, body: { content: "#slow please" } });
    const writing = () => t.database.db.select({ id: messages.id }).from(messages).where(eq(messages.status, "streaming"));
    for (let i = 0; i < 100 && (await writing()).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await writing()).toHaveLength(1);
    expect((await user.client.call(chatFoldersApi.remove, { params: { id: folder.id }, query: { chats: "delete" } })).status).toBe(204);
    const ended = await streaming;
    expect(ended.status).toBe(200);
    expect(await writing()).toHaveLength(0);
    expect((await user.client.call(chatsApi.get, { params: { id: chatId } })).status).toBe(404);
    expect(await t.database.db.select().from(messages).where(eq(messages.chatId, chatId))).toHaveLength(0);
    // The user can start replies again at once (nothing counts as still running).
    const next = await oneExchange(user.client);
    expect(next.a1.status).toBe("complete");
  });

  it("a message stored while its chat is deleted: 201 or 404, never a 5xx", async () => {
    const user = await member();
    for (let round = 0; round < 12; round++) {
      const chat = await newChat(user.client);
      const [added, removed] = await Promise.all([
        user.client.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content: "late", role: "assistant" } }),
        user.client.call(chatsApi.remove, { params: { id: chat.id } }),
      ]);
      expect(removed.status).toBe(204);
      expect([201, 404], added.response.body).toContain(added.status);
    }
  });

  it("two edits and a branch switch at once: one edit runs, the other is refused (409), the reply being written is shown", async () => {
    const user = await member();
    const chat = await newChat(user.client);
    await send(user.client, chat.id, "first question");
    await send(user.client, chat.id, "second question");
    const [q1, , q2] = await shown(user.client, chat.id);
    if (!q1 || !q2) throw new Error("expected four messages");
    const edit = (content: string) =>
      user.client.call(chatsApi.editMessage, { params: { id: chat.id, messageId: q2.id }, body: { content } });
    const [a, b, switched] = await Promise.all([
      edit("#slow edit one"),
      edit("#slow edit two"),
      user.client.call(chatsApi.switchBranch, { params: { id: chat.id }, body: { messageId: q1.id } }),
    ]);
    expect(statuses([a, b])).toEqual([200, 409]);
    expect([200, 409]).toContain(switched.status);
    const winner = parseEvents((a.status === 200 ? a : b).response.body);
    const start = winner[0];
    if (start?.type !== "start") throw new Error("no start event");
    const after = await shown(user.client, chat.id);
    expect(after.map((m) => m.id).slice(-2)).toEqual([start.userMessage?.id, start.assistantMessage.id]);
  });

  it("parallel messages stored with POST /messages hold the messages per day exactly", async () => {
    const user = await member();
    await admin.call(planAllowancesApi.update, {
      body: { free: { monthlyTokens: null, messagesPerDay: 2 }, earlyAccess: { monthlyTokens: null, messagesPerDay: null } },
    });
    try {
      const chat = await newChat(user.client);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          user.client.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content: `note ${i}` } }),
        ),
      );
      expect(statuses(results)).toEqual([201, 201, 429, 429, 429, 429]);
      expect((await user.client.ok(usageApi.mine, {})).messages.used).toBe(2);
      expect(await shown(user.client, chat.id)).toHaveLength(2);
    } finally {
      await admin.ok(planAllowancesApi.update, { body: noAllowances });
    }
  });
});

describe("search snippets", () => {
  it("never cut an emoji in two", async () => {
    const user = await member();
    const chat = await newChat(user.client);
    // The snippet starts 40 units before the word and is 140 long: both ends fall inside a pair here.
    const content = `${"\u{1F600}".repeat(30)}x needle ${"\u{1F600}".repeat(100)}`;
    expect((await user.client.call(chatsApi.addMessage, { params: { id: chat.id }, body: { content } })).status).toBe(201);
    const res = await user.client.call(chatsApi.search, { query: { q: "needle" } });
    expect(res.status).toBe(200);
    const [hit] = res.data;
    expect(hit?.snippet).toContain("needle");
    expect(hit?.snippet).not.toContain("\uFFFD");
    expect(hit?.snippet).toMatch(/^\.\.\.\u{1F600}.*\u{1F600}\.\.\.$/u);
  });
});
