// Passages found by the search_files tool are cited like a reply's own sources (decision 055): numbered after them
// (one numbering per reply), stored with the reply's citations when its text cites them, carried by the call's `tool`
// event for the chips while it streams, readable by the side panel's route (the owner only, the owner's pieces only),
// and listed in the exports; another user's passage never appears.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatsApi, type StreamEvent } from "../../src/shared/contracts/chat.js";
import { chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import { type AdminMcpServer, mcpServersApi } from "../../src/shared/contracts/mcp-servers.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { type CallInput, callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";
import { seedFile } from "../helpers/library-seed.js";
import { eventOf } from "../helpers/sse-reader.js";

let t: TestApp;
let fake: FakeProvider;
let mcp: McpFake;
let admin: CookieClient;
let server: AdminMcpServer;
let owner: CookieClient;
let ownerId: number;
let stranger: CookieClient;
let notesId: number;
let leavesId: number;
let rootsId: number;

const LEAF = "The chloroplast turns light into sugar inside the leaf.";
const ROOT = "Roots take up water and minerals from the soil.";

beforeAll(async () => {
  [fake, mcp] = await Promise.all([startOpenAiCompatibleFake(), startMcpFake()]);
  t = await buildTestApp();
  ({ admin } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", fake);
  const created = await admin.call(mcpServersApi.create, {
    body: { name: "Tools", url: mcp.url, headers: {}, plans: ["free", "earlyAccess"] },
  });
  expect(created.status, created.response.body).toBe(201);
  server = await admin.ok(mcpServersApi.refresh, { params: { id: created.data.id } });
  // `add` waits for the user's answer: a reply paused after its search has answered.
  expect(
    (await admin.call(mcpServersApi.update, { params: { id: server.id }, body: { tools: [{ name: "add", needsApproval: true }] } })).status,
  ).toBe(200);
  const db = t.database.db;
  const rows = await db.execute(sql`select id from platform_settings`);
  if (rows.rows.length === 0) await db.execute(sql`insert into platform_settings default values`);
  await db.execute(sql`update platform_settings set tool_max_steps = 8, tool_call_timeout_seconds = 30`);

  const first = await registerAndSignIn(t.app);
  owner = first.client;
  ownerId = first.user.id;
  const second = await registerAndSignIn(t.app);
  stranger = second.client;
  notesId = await seedFile(db, { userId: ownerId, name: "notes.md", chunks: [{ content: "My own notes about tides and the moon." }] });
  leavesId = await seedFile(db, {
    userId: ownerId,
    name: "leaves.md",
    chunks: [{ content: "Leaves are green." }, { content: LEAF, page: 2 }, { content: "Autumn leaves fall." }],
  });
  rootsId = await seedFile(db, { userId: ownerId, name: "roots.md", chunks: [{ content: ROOT }] });
  await seedFile(db, {
    userId: second.user.id,
    name: "private-diary.md",
    chunks: [{ content: "My private chloroplast notes and roots, for nobody else." }],
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([fake?.close(), mcp?.close()]);
});

const doneOf = (events: StreamEvent[]) => eventOf(events.at(-1), "done").assistantMessage;
const toolEvents = (events: StreamEvent[]) =>
  events.filter((e): e is Extract<StreamEvent, { type: "tool" }> => e.type === "tool").map((e) => e.toolCall);

async function chatWithTools(client: CookieClient, tools: string[]) {
  const chat = await newChat(client);
  const res = await client.call(chatsApi.update, { params: { id: chat.id }, body: { tools } });
  expect(res.status, res.response.body).toBe(200);
  return chat.id;
}

type ReplyBody = CallInput<typeof chatsApi.reply>["body"];
const reply = (client: CookieClient, id: number, body: ReplyBody) => client.call(chatsApi.reply, { params: { id }, body });
const messagesOf = (client: CookieClient, id: number) => client.call(chatsApi.messages, { params: { id } });
const citation = (client: CookieClient, id: number, messageId: number, n: number) =>
  client.call(chatsApi.citation, { params: { id, messageId, n } });

const leafCitation = (n: number) => ({ n, fileId: leavesId, fileName: "leaves.md", page: 2, excerpt: LEAF });
const rootCitation = (n: number) => ({ n, fileId: rootsId, fileName: "roots.md", page: null, excerpt: ROOT });

describe("search_files passages as citations", () => {
  it("are numbered after the reply's own sources, stored as its citations, and open for the owner only", async () => {
    const chatId = await chatWithTools(owner, ["builtin:search_files"]);
    // notes.md goes whole as the reply's own source [1]; the two searches number theirs [2] and [3], in the order run.
    const res = await reply(owner, chatId, {
      content: 'Explain #tool=search_files{"query":"chloroplast"} #tool=search_files{"query":"minerals"}',
      fileIds: [notesId],
    });
    expect(res.status, res.response.body).toBe(200);
    const events = parseEvents(res.response.body);
    const sent = fake.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] } | undefined;
    const system = (sent?.messages ?? [])
      .filter((m) => m.role === "system")
      .map((m) => String(m.content))
      .join("\n");
    expect(system).toContain("[1] notes.md\nMy own notes");
    // The model read the passages under the numbers the reply cites (the stand-in repeats them as its text).
    const text = textOf(events);
    expect(text).toBe(`Tool results: [2] leaves.md, page 2\n${LEAF} | [3] roots.md\n${ROOT}`);
    expect(text).not.toContain("private");

    // Live: each call's `tool` event carries its passages, numbered, without the chunk's id.
    const ended = toolEvents(events).filter((c) => c.status === "done");
    expect(ended.map((c) => c.sources)).toEqual([[leafCitation(2)], [rootCitation(3)]]);
    expect(
      toolEvents(events)
        .filter((c) => c.status === "running")
        .every((c) => c.sources.length === 0),
    ).toBe(true);

    // Stored: the reply's citations are the passages its text cites, by the tool's numbers; [1] is not cited.
    const done = doneOf(events);
    expect(done.citations).toEqual([leafCitation(2), rootCitation(3)]);
    const storedRes = await messagesOf(owner, chatId);
    const stored = storedRes.data.items;
    expect(stored.at(-1)?.citations).toEqual(done.citations);
    expect(stored.at(-1)?.toolCalls.map((c) => c.sources)).toEqual([[leafCitation(2)], [rootCitation(3)]]);
    // As sent (the contract's parse would drop an unknown key).
    expect(storedRes.response.body).not.toContain("chunkId");

    // The side panel's read: the passage with the pieces around it in its file.
    const read = await citation(owner, chatId, done.id, 2);
    expect(read.status, read.response.body).toBe(200);
    expect(read.response.json()).toEqual({
      ...leafCitation(2),
      passage: LEAF,
      before: "Leaves are green.",
      beforePage: null,
      after: "Autumn leaves fall.",
      afterPage: null,
      headingPath: "",
    });
    // Another user, a signed-out caller, a number the reply does not have: refused.
    expect((await citation(stranger, chatId, done.id, 2)).status).toBe(404);
    expect((await callApp(t.app, chatsApi.citation, { params: { id: chatId, messageId: done.id, n: 2 } })).status).toBe(401);
    expect((await citation(owner, chatId, done.id, 9)).status).toBe(404);
  });

  it("another user's search never finds the owner's passages, and never reads the owner's citation", async () => {
    const chatId = await chatWithTools(stranger, ["builtin:search_files"]);
    const res = await reply(stranger, chatId, { content: 'Find #tool=search_files{"query":"chloroplast"}' });
    const done = doneOf(parseEvents(res.response.body));
    expect(done.toolCalls[0]?.sources.map((s) => s.fileName)).toEqual(["private-diary.md"]);
    expect(done.citations.map((c) => [c.n, c.fileName])).toEqual([[1, "private-diary.md"]]);
    expect(JSON.stringify(done)).not.toContain("leaves.md");
  });

  it("a regenerate gets its own citations; the earlier version keeps its own, on its branch", async () => {
    const chatId = await chatWithTools(owner, ["builtin:search_files"]);
    const first = doneOf(
      parseEvents((await reply(owner, chatId, { content: 'Find #tool=search_files{"query":"minerals"}' })).response.body),
    );
    expect(first.citations).toEqual([rootCitation(1)]);
    const again = await owner.call(chatsApi.regenerate, { params: { id: chatId }, body: {} });
    expect(again.status, again.response.body).toBe(200);
    const second = doneOf(parseEvents(again.response.body));
    expect(second.id).not.toBe(first.id);
    expect(second.citations).toEqual([rootCitation(1)]);
    // Both versions open their own passage.
    for (const id of [first.id, second.id]) {
      expect((await citation(owner, chatId, id, 1)).data).toMatchObject({ fileName: "roots.md" });
    }
  });

  it("a reply paused after its search already opens the search's passages; its end stores them as citations", async () => {
    const chatId = await chatWithTools(owner, ["builtin:search_files", `mcp:${server.id}:add`]);
    const res = await reply(owner, chatId, {
      content: `Both #tool=search_files{"query":"chloroplast"} #tool=mcp${server.id}_add{"a":1,"b":2}`,
    });
    const paused = doneOf(parseEvents(res.response.body));
    expect(paused.status).toBe("awaiting-approval");
    // Nothing in its text yet, so nothing stored as cited; the passage is there for the chip all the same.
    expect(paused.citations).toEqual([]);
    expect(paused.toolCalls[0]?.sources).toEqual([leafCitation(1)]);
    const read = await citation(owner, chatId, paused.id, 1);
    expect(read.status, read.response.body).toBe(200);
    expect(read.data).toMatchObject({ fileName: "leaves.md", page: 2, after: "Autumn leaves fall." });
    expect((await citation(stranger, chatId, paused.id, 1)).status).toBe(404);

    const callId = paused.toolCalls[1]?.id ?? "";
    const approved = await owner.call(chatsApi.approveToolCall, { params: { id: chatId, callId } });
    expect(approved.status, approved.response.body).toBe(200);
    const done = doneOf(parseEvents(approved.response.body));
    expect(done.content).toBe(`Tool results: [1] leaves.md, page 2\n${LEAF} | 3`);
    expect(done.citations).toEqual([leafCitation(1)]);
  });

  it("the exports list a reply's cited sources (never a database id); the import takes the file back", async () => {
    const chatId = await chatWithTools(owner, ["builtin:search_files"]);
    await reply(owner, chatId, { content: 'Find #tool=search_files{"query":"chloroplast"}' });
    const exportOf = (format: "json" | "markdown") => owner.call(chatTransferApi.exportOne, { params: { id: chatId }, query: { format } });
    // A file's answer: its bytes, read as sent.
    const json = (await exportOf("json")).response;
    expect(json.statusCode, json.body).toBe(200);
    const file = json.json() as { chats: { messages: Record<string, unknown>[] }[] };
    const sentReply = file.chats[0]?.messages[1];
    const exported = { n: 1, fileName: "leaves.md", page: 2, excerpt: LEAF };
    expect(sentReply?.citations).toEqual([exported]);
    expect((sentReply?.toolCalls as { sources: unknown }[] | undefined)?.[0]?.sources).toEqual([exported]);
    expect(json.body).not.toContain("fileId");
    expect(json.body).not.toContain("chunkId");

    const markdown = (await exportOf("markdown")).response;
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain("_Sources:_\n\n- \\[1\\] leaves.md, page 2\n");

    // The import's contract is an upload; it also takes the export as a JSON body, sent as it is.
    const imported = await stranger.call(chatTransferApi.import, {}, { rawBody: file });
    expect(imported.status, imported.response.body).toBe(200);
    expect(imported.data.imported).toBe(1);
    const [theirs] = (await stranger.ok(chatsApi.list, {})).items;
    if (!theirs) throw new Error("the import made no chat");
    const messages = (await messagesOf(stranger, theirs.id)).data.items;
    // The text comes back; the citations and passages (the owner's files) do not.
    const last = messages.at(-1);
    if (!last) throw new Error("the imported chat has no message");
    expect(last.content).toContain("[1] leaves.md");
    expect(last.citations).toEqual([]);
    expect(last.toolCalls[0]?.sources).toEqual([]);
    expect((await citation(stranger, theirs.id, last.id, 1)).status).toBe(404);
  });
  it("a passage cut for its excerpt right inside an emoji is still stored: the reply ends, its call keeps the excerpt", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    // The excerpt keeps 300 characters; a cut at 300 would split 𝑥 (two UTF-16 halves at 299 and 300), and jsonb
    // refuses a lone half.
    const passage = `${"Seaweed ".repeat(37)}abc𝑥 is the unknown seaweed.`;
    expect(passage.charCodeAt(299)).toBeGreaterThanOrEqual(0xd800);
    await seedFile(t.database.db, { userId: user.id, name: "algebra.md", chunks: [{ content: passage }] });
    const chatId = await chatWithTools(client, ["builtin:search_files"]);
    const res = await reply(client, chatId, { content: 'Find #tool=search_files{"query":"seaweed"}' });
    expect(res.status, res.response.body).toBe(200);
    const done = doneOf(parseEvents(res.response.body));
    expect(done.status).toBe("complete");
    const stored = (await messagesOf(client, chatId)).data.items;
    const excerpt = stored.at(-1)?.toolCalls[0]?.sources[0]?.excerpt ?? "";
    expect(excerpt).toBe(`${passage.slice(0, 299).trimEnd()}…`);
    expect(stored.at(-1)?.status).toBe("complete");
    // The chat takes the next message (a reply left unsaved would keep it "still being written").
    const next = await reply(client, chatId, { content: "Thanks" });
    expect(next.status, next.response.body).toBe(200);
  });
});
