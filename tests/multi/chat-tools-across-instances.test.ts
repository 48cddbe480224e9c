// Tools in a reply across two instances (issue 34, decisions 046 and 050): a viewer on B following a reply A writes
// sees its tool cards live (a call started, its result, a call awaiting approval); the approval is answered on B,
// which did not run the reply, and the reply goes on there; Stop on B ends a reply paused on A.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamEvent } from "../../src/shared/contracts/chat.js";
import { ENDED_UNANSWERED } from "../../src/shared/contracts/paused-reply.js";
import type { ToolCall } from "../../src/shared/contracts/tools.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { eventOf, jsonPost, readEvents, replyText } from "../helpers/sse-reader.js";
import { createScratchPostgres } from "../helpers/test-database.js";

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let fake: FakeProvider;
let mcp: McpFake;
let a: RunningServer;
let b: RunningServer;
let serverId: number;
const client = cookieFetch();

beforeAll(async () => {
  [fake, mcp] = await Promise.all([startOpenAiCompatibleFake(), startMcpFake({ slowMs: 1500 })]);
  scratch = await createScratchPostgres();
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, LOG_LEVEL: "warn" };
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  expect((await client.call(`${a.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
  await pointSpawnedOpenAiAt(client, a.url, fake, FAKE_KEY);
  const created = await client.call(`${a.url}/api/admin/mcp-servers`, {
    method: "POST",
    body: { name: "Tools", url: mcp.url, headers: {}, plans: ["free", "earlyAccess"] },
  });
  expect(created.status).toBe(201);
  serverId = ((await created.json()) as { id: number }).id;
  expect((await client.call(`${a.url}/api/admin/mcp-servers/${serverId}/refresh`, { method: "POST" })).status).toBe(200);
  const patched = await client.call(`${a.url}/api/admin/mcp-servers/${serverId}`, {
    method: "PATCH",
    body: { tools: [{ name: "add", needsApproval: true }] },
  });
  expect(patched.status).toBe(200);
}, 90_000);
afterAll(async () => {
  a?.child.kill("SIGTERM");
  b?.child.kill("SIGTERM");
  await Promise.all([a?.exited, b?.exited]);
  await scratch?.drop();
  await Promise.all([fake?.close(), mcp?.close()]);
});

const toolName = (tool: string) => `mcp${serverId}_${tool}`;
const toolId = (tool: string) => `mcp:${serverId}:${tool}`;
const toolEvents = (events: StreamEvent[]) =>
  events.filter((e): e is Extract<StreamEvent, { type: "tool" }> => e.type === "tool").map((e) => e.toolCall);

async function chatWithTools(server: RunningServer, tools: string[]): Promise<number> {
  const res = await client.call(`${server.url}/api/chats`, { method: "POST", body: {} });
  const chatId = ((await res.json()) as { id: number }).id;
  const patched = await client.call(`${server.url}/api/chats/${chatId}`, { method: "PATCH", body: { tools } });
  expect(patched.status).toBe(200);
  return chatId;
}

/** A reply on A that calls `slow` (1.5 s) and `add` (asks first), so it pauses once `slow` answered. */
async function startOnA(chatId: number, sum: [number, number]) {
  const content = `Go #tool=${toolName("slow")} #tool=${toolName("add")}{"a":${sum[0]},"b":${sum[1]}}`;
  return jsonPost(`${a.url}/api/chats/${chatId}/reply`, client.cookie, { content });
}

describe("tool calls across two instances", () => {
  it("a viewer on B sees the cards live; the approval is answered on B and the reply goes on there", { timeout: 60_000 }, async () => {
    const chatId = await chatWithTools(a, [toolId("slow"), toolId("add")]);
    const onA = await startOnA(chatId, [20, 22]);
    // A has recorded the calls and runs `slow`: B attaches now, while A's own stream is read to its end.
    let following: Promise<StreamEvent[]> | undefined;
    const viewOnB = async () => {
      const res = await fetch(`${b.url}/api/chats/${chatId}/stream`, { headers: { cookie: client.cookie } });
      expect(res.status).toBe(200);
      return readEvents(res);
    };
    const onAEvents = await readEvents(onA, (event) => {
      if (event.type === "tool") following ??= viewOnB();
      return false;
    });
    expect(toolEvents(onAEvents)[0]).toMatchObject({ tool: toolId("slow"), status: "running" });
    const onB = (await following) ?? [];
    // B's snapshot already shows the cards as A mirrored them (`slow` running, `add` waiting), then `slow`'s result live.
    const snapshot = eventOf(onB[0], "snapshot").assistantMessage;
    expect(snapshot.toolCalls.map((c: ToolCall) => [c.tool, c.status])).toEqual([
      [toolId("slow"), "running"],
      [toolId("add"), "awaiting-approval"],
    ]);
    expect(toolEvents(onB).map((c) => [c.tool, c.status])).toEqual([[toolId("slow"), "done"]]);
    const paused = eventOf(onB.at(-1), "done").assistantMessage;
    expect(paused.status).toBe("awaiting-approval");
    expect(paused.toolCalls.map((c) => c.status)).toEqual(["done", "awaiting-approval"]);
    expect(eventOf(onAEvents.at(-1), "done").assistantMessage.status).toBe("awaiting-approval");

    // Answered on B, which never ran the reply: it goes on there.
    const callId = paused.toolCalls[1]?.id ?? "";
    const approved = await jsonPost(`${b.url}/api/chats/${chatId}/tool-calls/${callId}/approve`, client.cookie);
    expect(approved.status).toBe(200);
    const onBAgain = await readEvents(approved);
    expect(toolEvents(onBAgain).map((c) => [c.tool, c.status, c.result])).toEqual([[toolId("add"), "done", "42"]]);
    const done = eventOf(onBAgain.at(-1), "done").assistantMessage;
    expect(done).toMatchObject({ id: paused.id, status: "complete" });
    expect(replyText(onBAgain)).toContain("42");
    expect(mcp.calls.filter((c) => c.name === "add").at(-1)).toEqual({ name: "add", args: { a: 20, b: 22 } });
    // Answered already: 409 on either instance.
    expect((await jsonPost(`${a.url}/api/chats/${chatId}/tool-calls/${callId}/deny`, client.cookie)).status).toBe(409);
  });

  it("Stop on B ends a reply paused on A; an approval on A afterwards is a 409", { timeout: 60_000 }, async () => {
    const chatId = await chatWithTools(a, [toolId("slow"), toolId("add")]);
    const paused = eventOf((await readEvents(await startOnA(chatId, [1, 2]))).at(-1), "done").assistantMessage;
    expect(paused.status).toBe("awaiting-approval");
    const stopped = await jsonPost(`${b.url}/api/chats/${chatId}/stop`, client.cookie);
    expect(await stopped.json()).toEqual({ stopped: true });
    const callId = paused.toolCalls[1]?.id ?? "";
    const late = await jsonPost(`${a.url}/api/chats/${chatId}/tool-calls/${callId}/approve`, client.cookie);
    expect(late.status).toBe(409);
    const stored = (await (await client.call(`${a.url}/api/chats/${chatId}/messages`)).json()) as {
      id: number;
      status: string;
      toolCalls: ToolCall[];
    }[];
    const ended = stored.find((m) => m.id === paused.id);
    expect(ended?.status).toBe("incomplete");
    expect(ended?.toolCalls.map((c) => [c.status, c.result])).toEqual([
      ["done", "Finally done"],
      ["denied", ENDED_UNANSWERED],
    ]);
  });
});
