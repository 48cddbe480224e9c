// Tools in a chat reply (issue 34, decision 046): built-in tools and a real MCP server's (tests/fakes/mcp-server.ts),
// called by the provider stand-ins in each wire format the app speaks (OpenAI chat completions and responses, Anthropic,
// Mistral);
// each call streamed as a `tool` event, stored on the message, its result given back to the model; approval pauses the
// reply and approve/deny resumes it, also on a new instance; a timeout and an error end cleanly; the step bound holds;
// a free user never reaches an Early-Access-only server.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { buildApp } from "../../src/server/app.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi, type StreamEvent } from "../../src/shared/contracts/chat.js";
import { chatExportFileSchema, chatTransferApi } from "../../src/shared/contracts/chat-transfer.js";
import { type AdminMcpServer, mcpServersApi } from "../../src/shared/contracts/mcp-servers.js";
import { ENDED_UNANSWERED, PAUSED_LEFT } from "../../src/shared/contracts/paused-reply.js";
import { personalitiesApi } from "../../src/shared/contracts/personalities.js";
import { toolsApi } from "../../src/shared/contracts/tools.js";
import { startAnthropicFake } from "../fakes/anthropic-fake.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { adminAndUser, FAKE_KEY, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";
import { seedFile } from "../helpers/library-seed.js";
import { eventOf } from "../helpers/sse-reader.js";

let t: TestApp;
let openAiFake: FakeProvider;
let anthropicFake: FakeProvider;
let mcp: McpFake;
let eaMcp: McpFake;
let admin: CookieClient;
let user: CookieClient;
let server: AdminMcpServer;
let eaServer: AdminMcpServer;

async function addServer(name: string, url: string, plans: ("free" | "earlyAccess")[]) {
  const { id } = await admin.ok(mcpServersApi.create, { body: { name, url, headers: {}, plans } });
  return admin.ok(mcpServersApi.refresh, { params: { id } });
}

beforeAll(async () => {
  [openAiFake, anthropicFake, mcp, eaMcp] = await Promise.all([
    startOpenAiCompatibleFake(),
    startAnthropicFake(),
    startMcpFake({ slowMs: 3000 }),
    startMcpFake(),
  ]);
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
  await pointPlatformAt(admin, "openai", openAiFake);
  await pointPlatformAt(admin, "anthropic-claude", anthropicFake);
  await pointPlatformAt(admin, "mistral", openAiFake);
  // OpenAI's Responses API (decision 050): an OpenAI platform set to it, on the same stand-in.
  const responses = await admin.call(aiPlatformsApi.create, {
    body: {
      name: "OpenAI Responses",
      slug: "openai-responses",
      kind: "openai",
      api: "responses",
      apiKey: FAKE_KEY,
      baseUrl: openAiFake.url,
      settings: { models: ["fake-model"], temperature: 0.7, maxTokens: 1024, freeModels: ["fake-model"] },
    },
  });
  expect(responses.status, responses.response.body).toBe(201);
  server = await addServer("Tools", mcp.url, ["free", "earlyAccess"]);
  eaServer = await addServer("Early tools", eaMcp.url, ["earlyAccess"]);
  // `add` waits for the user's answer before each call.
  const patched = await admin.call(mcpServersApi.update, {
    params: { id: server.id },
    body: { tools: [{ name: "add", needsApproval: true }] },
  });
  expect(patched.status, patched.response.body).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([openAiFake?.close(), anthropicFake?.close(), mcp?.close(), eaMcp?.close()]);
});

/** The name a model calls an MCP tool by (tools-service.ts `modelToolName`). */
const mcpName = (s: AdminMcpServer, tool: string) => `mcp${s.id}_${tool}`;
const mcpId = (s: AdminMcpServer, tool: string) => `mcp:${s.id}:${tool}`;

async function setToolLimits(maxSteps: number, timeoutSeconds: number) {
  const db = t.database.db;
  const rows = await db.execute(sql`select id from platform_settings`);
  if (rows.rows.length === 0) await db.execute(sql`insert into platform_settings default values`);
  await db.execute(sql`update platform_settings set tool_max_steps = ${maxSteps}, tool_call_timeout_seconds = ${timeoutSeconds}`);
}

async function chatWithTools(client: CookieClient, tools: string[], body: Record<string, unknown> = {}) {
  const chat = await newChat(client, body);
  const res = await client.call(chatsApi.update, { params: { id: chat.id }, body: { tools } });
  expect(res.status, res.response.body).toBe(200);
  expect(res.data.tools).toEqual([...tools].sort());
  return chat.id;
}

const reply = (client: CookieClient, chatId: number, body: { content: string; platformSlug?: string }) =>
  client.call(chatsApi.reply, { params: { id: chatId }, body });
/** Approves or denies a tool call awaiting approval. */
const answer = (client: CookieClient, chatId: number, callId: string | undefined, how: "approve" | "deny") =>
  client.call(how === "approve" ? chatsApi.approveToolCall : chatsApi.denyToolCall, { params: { id: chatId, callId: callId ?? "" } });
/** The branch shown of a chat (its first page). */
const storedOf = async (chatId: number) => (await user.ok(chatsApi.messages, { params: { id: chatId } })).items;

const toolEvents = (events: StreamEvent[]) =>
  events.filter((e): e is Extract<StreamEvent, { type: "tool" }> => e.type === "tool").map((e) => e.toolCall);
const doneOf = (events: StreamEvent[]) => eventOf(events.at(-1), "done").assistantMessage;

describe("GET /api/tools and a chat's tools", () => {
  it("lists the built-in tools and the MCP tools the caller's plan allows", async () => {
    const res = await user.call(toolsApi.list, {});
    expect(res.status).toBe(200);
    const tools = res.data;
    const ids = tools.map((tool) => tool.id);
    expect(ids.slice(0, 2)).toEqual(["builtin:search_files", "builtin:current_time"]);
    expect(ids).toContain(mcpId(server, "echo"));
    // Early Access only: a free user never sees it.
    expect(ids.some((id) => id.startsWith(`mcp:${eaServer.id}:`))).toBe(false);
    expect(tools.find((tool) => tool.id === mcpId(server, "add"))).toMatchObject({
      source: "mcp",
      serverName: "Tools",
      needsApproval: true,
    });
    // An admin may use every server.
    expect((await admin.ok(toolsApi.list, {})).some((tool) => tool.id === mcpId(eaServer, "echo"))).toBe(true);
    expect((await callApp(t.app, toolsApi.list, {})).status).toBe(401);
  });

  it("PATCH takes only tools the caller may use; a new chat takes its personality's tools", async () => {
    const chat = await newChat(user);
    const params = { id: chat.id };
    const patch = (tools: string[]) => user.call(chatsApi.update, { params, body: { tools } });
    const refused = await patch([mcpId(eaServer, "echo")]);
    expect(refused.status).toBe(403);
    expect(refused.error.message).toBe(`The tool ${mcpId(eaServer, "echo")} is not available to you.`);
    const unknown = await patch(["builtin:nope"]);
    expect(unknown.status).toBe(400);
    expect(unknown.error.message).toBe("Unknown tool");
    expect((await patch(["not a tool"])).status).toBe(400);
    const ok = await patch(["builtin:current_time", "builtin:current_time"]);
    expect(ok.data.tools).toEqual(["builtin:current_time"]);
    expect((await user.ok(chatsApi.get, { params })).tools).toEqual(["builtin:current_time"]);
    // Someone else's chat is a 404.
    const other = await registerAndSignIn(t.app);
    expect((await other.client.call(chatsApi.update, { params, body: { tools: [] } })).status).toBe(404);

    // An admin (personalities need Early Access; admins always pass) gives a personality default tools.
    const persona = await admin.call(personalitiesApi.create, {
      body: { name: "Clock", instructions: "Tell time.", tools: ["builtin:current_time"] },
    });
    expect(persona.status, persona.response.body).toBe(201);
    expect(persona.data.tools).toEqual(["builtin:current_time"]);
    const withPersona = await admin.ok(chatsApi.create, { body: { personalityId: persona.data.id } });
    expect(withPersona.tools).toEqual(["builtin:current_time"]);
  });
});

describe("a reply that calls tools, in each wire format", () => {
  const kinds = [
    { slug: "openai", fake: () => openAiFake, path: "/v1/chat/completions" },
    { slug: "anthropic-claude", fake: () => anthropicFake, path: "/v1/messages" },
    { slug: "mistral", fake: () => openAiFake, path: "/v1/chat/completions" },
    { slug: "openai-responses", fake: () => openAiFake, path: "/v1/responses" },
  ];
  for (const kind of kinds) {
    it(`${kind.slug}: built-in and MCP tools run, stream their cards, and their results reach the model`, async () => {
      await setToolLimits(8, 30);
      const chatId = await chatWithTools(user, ["builtin:current_time", "builtin:search_files", mcpId(server, "echo")], {
        aiPlatform: kind.slug,
        model: "fake-model",
      });
      const before = kind.fake().requests.length;
      const content = `Look #tool=current_time #tool=search_files{"query":"tides"} #tool=${mcpName(server, "echo")}{"text":"hi ${kind.slug}"}`;
      const res = await reply(user, chatId, { content });
      expect(res.status, res.response.body).toBe(200);
      const events = parseEvents(res.response.body);
      const calls = toolEvents(events);
      // Each call: a card when it starts, and when it ends.
      expect(calls.map((c) => [c.tool, c.status])).toEqual([
        ["builtin:current_time", "running"],
        ["builtin:search_files", "running"],
        [mcpId(server, "echo"), "running"],
        ["builtin:current_time", "done"],
        ["builtin:search_files", "done"],
        [mcpId(server, "echo"), "done"],
      ]);
      const text = textOf(events);
      expect(text).toMatch(/^Tool results: \d{4}-\d\d-\d\dT/);
      // This user has no files: the search says so.
      expect(text).toContain("The user's library has no files to search yet: nothing was found.");
      expect(text).toContain(`Echo: hi ${kind.slug}`);
      const done = doneOf(events);
      expect(done.status).toBe("complete");
      expect(done.toolCalls.map((c) => c.name)).toEqual(["Current date and time", "Search my files", "echo"]);
      expect(done.toolCalls[2]).toMatchObject({ args: { text: `hi ${kind.slug}` }, result: `Echo: hi ${kind.slug}`, textOffset: 0 });
      // Two model steps, and both steps' tokens are counted.
      const paths = kind.fake().requests.map((r) => r.path);
      expect(paths.slice(before)).toEqual([kind.path, kind.path]);
      expect(done.outputTokens).toBeGreaterThan(1);
      expect(mcp.calls.at(-1)).toEqual({ name: "echo", args: { text: `hi ${kind.slug}` } });
      const stored = await storedOf(chatId);
      expect(stored.at(-1)?.toolCalls).toEqual(done.toolCalls);
    });
  }

  it("gives earlier turns' calls and results back to the model as tool parts", async () => {
    await setToolLimits(8, 30);
    const chatId = await chatWithTools(user, ["builtin:current_time"]);
    await reply(user, chatId, { content: "Time? #tool=current_time" });
    const res = await reply(user, chatId, { content: "Thanks" });
    expect(doneOf(parseEvents(res.response.body)).status).toBe("complete");
    const sent = openAiFake.requests.at(-1)?.body as { messages: { role: string; tool_calls?: unknown[] }[] };
    expect(sent.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(sent.messages[1]?.tool_calls).toHaveLength(1);
    // The JSON export carries the calls, with their step.
    const exported = await user.call(chatTransferApi.exportOne, { params: { id: chatId }, query: { format: "json" } });
    expect(exported.status, exported.response.body).toBe(200);
    const second = chatExportFileSchema.parse(exported.response.json()).chats[0]?.messages[1];
    expect(second?.toolCalls).toEqual([expect.objectContaining({ tool: "builtin:current_time", status: "done", step: 1, textOffset: 0 })]);
  });
});

describe("approval", () => {
  it("pauses the reply on a call that needs approval; approve runs it and the reply goes on", async () => {
    await setToolLimits(8, 30);
    const chatId = await chatWithTools(user, [mcpId(server, "add")]);
    const res = await reply(user, chatId, { content: `Sum #tool=${mcpName(server, "add")}{"a":2,"b":3}` });
    const events = parseEvents(res.response.body);
    const [card] = toolEvents(events);
    expect(card).toMatchObject({ tool: mcpId(server, "add"), status: "awaiting-approval", args: { a: 2, b: 3 }, result: null });
    const paused = doneOf(events);
    expect(paused.status).toBe("awaiting-approval");
    const callId = card?.id;
    const callsBefore = mcp.calls.length;
    // Nothing ran, nothing streams (GET /stream: 204), and the stored message shows the pause.
    expect(mcp.calls.length).toBe(callsBefore);
    expect((await user.call(chatsApi.stream, { params: { id: chatId } })).status).toBe(204);
    const stored = await storedOf(chatId);
    expect(stored.at(-1)?.toolCalls[0]?.status).toBe("awaiting-approval");

    // Not the owner: 404; signed out: 401.
    const other = await registerAndSignIn(t.app);
    expect((await answer(other.client, chatId, callId, "approve")).status).toBe(404);
    expect((await callApp(t.app, chatsApi.approveToolCall, { params: { id: chatId, callId: callId ?? "" } })).status).toBe(401);
    expect((await answer(user, chatId, "nope", "approve")).status).toBe(404);

    const approved = await answer(user, chatId, callId, "approve");
    expect(approved.status, approved.response.body).toBe(200);
    const after = parseEvents(approved.response.body);
    expect(after[0]?.type).toBe("start");
    expect(toolEvents(after).map((c) => c.status)).toEqual(["done"]);
    expect(textOf(after)).toBe("Tool results: 5");
    const done = doneOf(after);
    expect(done).toMatchObject({ id: paused.id, status: "complete", content: "Tool results: 5" });
    expect(done.toolCalls[0]).toMatchObject({ status: "done", result: "5" });
    expect(mcp.calls.at(-1)).toEqual({ name: "add", args: { a: 2, b: 3 } });
    // Answered already: 409.
    const again = await answer(user, chatId, callId, "deny");
    expect(again.status).toBe(409);
    expect(again.error.message).toBe("This tool call is not waiting for an answer.");
  });

  it("deny tells the model the user denied the call, and the reply goes on", async () => {
    const chatId = await chatWithTools(user, [mcpId(server, "add")]);
    const calls = mcp.calls.length;
    const res = await reply(user, chatId, { content: `Sum #tool=${mcpName(server, "add")}{"a":1,"b":1}` });
    const callId = toolEvents(parseEvents(res.response.body))[0]?.id;
    const denied = await answer(user, chatId, callId, "deny");
    const events = parseEvents(denied.response.body);
    expect(textOf(events)).toBe("Tool results: The user denied this call.");
    expect(doneOf(events).toolCalls[0]).toMatchObject({ status: "denied", result: "The user denied this call." });
    expect(mcp.calls.length).toBe(calls);
  });
});

describe("search_files on a real library", () => {
  it("gives the model the caller's own passages, numbered with their files, never another user's", async () => {
    await setToolLimits(8, 30);
    const owner = await registerAndSignIn(t.app);
    const stranger = await registerAndSignIn(t.app);
    const db = t.database.db;
    await seedFile(db, {
      userId: owner.user.id,
      name: "leaves.md",
      chunks: [{ content: "The chloroplast turns light into sugar inside the leaf.", page: 2 }],
    });
    await seedFile(db, { userId: owner.user.id, name: "roots.md", chunks: [{ content: "Roots take up water and minerals." }] });
    await seedFile(db, {
      userId: stranger.user.id,
      name: "private-diary.md",
      chunks: [{ content: "My private chloroplast notes, for nobody else." }],
    });
    const ask = async (client: CookieClient, query: string) => {
      const chatId = await chatWithTools(client, ["builtin:search_files"]);
      const res = await reply(client, chatId, { content: `Find #tool=search_files{"query":"${query}"}` });
      expect(res.status, res.response.body).toBe(200);
      const done = doneOf(parseEvents(res.response.body));
      expect(done.toolCalls[0]).toMatchObject({ tool: "builtin:search_files", status: "done" });
      return done.toolCalls[0]?.result ?? "";
    };
    const found = await ask(owner.client, "chloroplast");
    expect(found).toBe("[1] leaves.md, page 2\nThe chloroplast turns light into sugar inside the leaf.");
    expect(found).not.toContain("private");
    // The model got it as the call's result (the stand-in repeats what it got).
    const sent = openAiFake.requests.at(-1)?.body as { messages: { role: string; content?: unknown }[] };
    expect(JSON.stringify(sent.messages.filter((m) => m.role === "tool"))).toContain("[1] leaves.md, page 2");
    // Nothing matches: said so; the stranger finds only their own.
    expect(await ask(owner.client, "volcano")).toBe("No passages of the user's files match.");
    const theirs = await ask(stranger.client, "chloroplast");
    expect(theirs).toContain("private-diary.md");
    expect(theirs).not.toContain("leaves.md");
  });
});

/** A reply paused on `add` (it asks first): the chat, the call's id and the paused message. */
async function pausedReply(a: number, b: number) {
  const chatId = await chatWithTools(user, [mcpId(server, "add")]);
  const res = await reply(user, chatId, { content: `Sum #tool=${mcpName(server, "add")}{"a":${a},"b":${b}}` });
  const events = parseEvents(res.response.body);
  const paused = doneOf(events);
  expect(paused.status).toBe("awaiting-approval");
  return { chatId, callId: toolEvents(events)[0]?.id ?? "", paused };
}

const heldBy = async (chatId: number) =>
  Number(
    (
      await t.database.db.execute(
        sql`select count(*)::int as n from ai_holds where user_id = (select user_id from chats where id = ${chatId})`,
      )
    ).rows[0]?.n,
  );

describe("ending a paused reply (decision 050)", () => {
  it("Stop ends a paused reply: kept as incomplete, its call denied, nothing held; an answer afterwards is a 409", async () => {
    await setToolLimits(8, 30);
    const { chatId, callId, paused } = await pausedReply(4, 4);
    const calls = mcp.calls.length;
    // Not the owner: 404; signed out: 401.
    const other = await registerAndSignIn(t.app);
    expect((await other.client.call(chatsApi.stop, { params: { id: chatId } })).status).toBe(404);
    expect((await callApp(t.app, chatsApi.stop, { params: { id: chatId } })).status).toBe(401);

    const stopped = await user.call(chatsApi.stop, { params: { id: chatId } });
    expect(stopped.status, stopped.response.body).toBe(200);
    expect(stopped.data).toEqual({ stopped: true });
    const stored = (await storedOf(chatId)).at(-1);
    expect(stored).toMatchObject({ id: paused.id, status: "incomplete", error: "Stopped before the end." });
    expect(stored?.toolCalls[0]).toMatchObject({ id: callId, status: "denied", result: ENDED_UNANSWERED });
    // Its hold was settled at the pause; nothing is held, and the slot is free for the next reply.
    expect(await heldBy(chatId)).toBe(0);
    const approved = await answer(user, chatId, callId, "approve");
    expect(approved.status).toBe(409);
    expect(approved.error.message).toBe("This tool call is not waiting for an answer.");
    expect(mcp.calls.length).toBe(calls);
    // Nothing left to stop.
    expect(await user.ok(chatsApi.stop, { params: { id: chatId } })).toEqual({ stopped: false });
    // The next reply goes on; the model is told the call was never answered.
    const next = await reply(user, chatId, { content: "Never mind" });
    expect(doneOf(parseEvents(next.response.body)).status).toBe("complete");
    const sent = openAiFake.requests.at(-1)?.body as { messages: { role: string; content?: unknown }[] };
    expect(JSON.stringify(sent.messages.filter((m) => m.role === "tool"))).toContain(ENDED_UNANSWERED);
  });

  it("a new message while a reply is paused ends it (its call denied, not run) and goes on", async () => {
    const { chatId, callId, paused } = await pausedReply(5, 6);
    const calls = mcp.calls.length;
    const res = await reply(user, chatId, { content: "Something else" });
    expect(res.status, res.response.body).toBe(200);
    expect(doneOf(parseEvents(res.response.body)).status).toBe("complete");
    const stored = await storedOf(chatId);
    const ended = stored.find((m) => m.id === paused.id);
    expect(ended).toMatchObject({ status: "incomplete", error: PAUSED_LEFT });
    expect(ended?.toolCalls[0]).toMatchObject({ status: "denied", result: ENDED_UNANSWERED });
    expect((await answer(user, chatId, callId, "approve")).status).toBe(409);
    expect(mcp.calls.length).toBe(calls);
  });

  it("a regenerate of the paused reply ends it too; the new reply is its sibling", async () => {
    const { chatId, callId, paused } = await pausedReply(1, 2);
    const res = await user.call(chatsApi.regenerate, { params: { id: chatId }, body: {} });
    expect(res.status, res.response.body).toBe(200);
    const done = doneOf(parseEvents(res.response.body));
    // The stand-in calls `add` again (same prompt): the new reply pauses in turn; the old one is ended.
    expect(done.id).not.toBe(paused.id);
    const [old] = (await t.database.db.execute(sql`select status, error, tool_calls from messages where id = ${paused.id}`)).rows as {
      status: string;
      error: string;
      tool_calls: { status: string }[];
    }[];
    expect(old).toMatchObject({ status: "incomplete", error: PAUSED_LEFT });
    expect(old?.tool_calls[0]?.status).toBe("denied");
    expect((await answer(user, chatId, callId, "deny")).status).toBe(409);
  });

  it("a new message refused before it is stored leaves the paused reply answerable", async () => {
    const { chatId, callId } = await pausedReply(7, 8);
    const refused = await reply(user, chatId, { content: "Other", platformSlug: "no-such-platform" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const approved = await answer(user, chatId, callId, "approve");
    expect(approved.status, approved.response.body).toBe(200);
    expect(textOf(parseEvents(approved.response.body))).toBe("Tool results: 15");
  });
});

describe("failures and bounds", () => {
  it("a tool that times out gives the model an error result and the reply ends cleanly", async () => {
    await setToolLimits(8, 1);
    const chatId = await chatWithTools(user, [mcpId(server, "slow")]);
    const res = await reply(user, chatId, { content: `Wait #tool=${mcpName(server, "slow")}` });
    const events = parseEvents(res.response.body);
    const done = doneOf(events);
    expect(done.status).toBe("complete");
    expect(done.toolCalls[0]).toMatchObject({ status: "error", result: "The tool did not answer within 1 second." });
    // The SDK sends an error result in OpenAI's format as {"error": ...}: the model got it, and the reply went on.
    expect(textOf(events)).toBe('Tool results: {"error":"The tool did not answer within 1 second."}');
  });

  it("a failing tool gives the model an error result and the reply ends cleanly", async () => {
    await setToolLimits(8, 30);
    const chatId = await chatWithTools(user, [mcpId(server, "fails")]);
    const res = await reply(user, chatId, { content: `Try #tool=${mcpName(server, "fails")}` });
    const done = doneOf(parseEvents(res.response.body));
    expect(done.status).toBe("complete");
    expect(done.toolCalls[0]).toMatchObject({ status: "error", result: "The tool failed on purpose" });
    expect(done.content).toBe('Tool results: {"error":"The tool failed on purpose"}');
  });

  it("a reply left by a dead instance is closed with its running calls ended as stopped", async () => {
    const chatId = await chatWithTools(user, ["builtin:current_time"]);
    const res = await reply(user, chatId, { content: "Time? #tool=current_time" });
    const written = doneOf(parseEvents(res.response.body));
    const running = [{ ...written.toolCalls[0], step: 1, status: "running", result: null }];
    await t.database.db.execute(
      sql`update messages set status = 'streaming', generation_owner = 'gone', tool_calls = ${JSON.stringify(running)}::jsonb where id = ${written.id}`,
    );
    await t.app.ctx.generations.recoverOrphans();
    const stored = (await storedOf(chatId)).at(-1);
    expect(stored?.status).toBe("incomplete");
    expect(stored?.toolCalls[0]).toMatchObject({ status: "error", result: "The reply was stopped before this tool answered." });
  });

  it("the step bound holds: no model step after the bound", async () => {
    await setToolLimits(1, 30);
    const chatId = await chatWithTools(user, ["builtin:current_time"]);
    const before = openAiFake.requests.length;
    const res = await reply(user, chatId, { content: "Time? #tool=current_time" });
    const done = doneOf(parseEvents(res.response.body));
    expect(openAiFake.requests.length - before).toBe(1);
    expect(done).toMatchObject({ status: "complete", content: "" });
    expect(done.toolCalls.map((c) => c.status)).toEqual(["done"]);
    await setToolLimits(8, 30);
  });

  it("a free user never reaches an Early-Access-only server, even if the id is forced into the chat", async () => {
    const chatId = (await newChat(user)).id;
    await t.database.db.execute(sql`update chats set tools = ${JSON.stringify([mcpId(eaServer, "echo")])}::jsonb where id = ${chatId}`);
    const calls = eaMcp.calls.length;
    const res = await reply(user, chatId, { content: `Hi #tool=${mcpName(eaServer, "echo")}{"text":"x"}` });
    const events = parseEvents(res.response.body);
    // Not offered to the model, so not called.
    expect(toolEvents(events)).toEqual([]);
    expect(eaMcp.calls.length).toBe(calls);
    const sent = openAiFake.requests.at(-1)?.body as { tools?: unknown[] };
    expect(sent.tools).toBeUndefined();
  });
});

// Last: it closes the first instance.
describe("a restart mid-pause", () => {
  it("resumes on a new instance after a restart mid-pause (nothing is held in memory)", async () => {
    const chatId = await chatWithTools(user, [mcpId(server, "add")]);
    const res = await reply(user, chatId, { content: `Sum #tool=${mcpName(server, "add")}{"a":20,"b":22}` });
    const callId = toolEvents(parseEvents(res.response.body))[0]?.id;
    // The first instance goes away (its engine closes); a new one opens the same database.
    await t.app.close();
    const app = await buildApp({ config: testConfig(), database: t.database });
    await app.ready();
    onTestFinished(() => app.close());
    // The user's session is stored in the database: the same cookie signs them in on the new instance.
    const cookie = user.sessionCookie ?? "";
    const headers = { cookie };
    const approved = await callApp(app, chatsApi.approveToolCall, { params: { id: chatId, callId: callId ?? "" } }, { headers });
    expect(approved.status, approved.response.body).toBe(200);
    expect(textOf(parseEvents(approved.response.body))).toBe("Tool results: 42");
    const stored = await callApp(app, chatsApi.messages, { params: { id: chatId } }, { headers });
    expect(stored.data.items.at(-1)).toMatchObject({ status: "complete", content: "Tool results: 42" });
  });
});
