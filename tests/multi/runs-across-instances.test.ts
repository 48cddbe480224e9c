import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERRUPTED } from "../../src/server/modules/courses/ai/generation-runner.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { jsonPost, readEvents } from "../helpers/sse-reader.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/**
 * Work of an instance killed with kill -9 while another lives (issue 14): the living one closes it within 30 s
 * (its heartbeat lapses in 15 s, it looks every 5 s), and a reply's text left in Redis with a NUL never stops
 * a start or the sweep.
 */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let fake: FakeProvider;
let db: pg.Client;
let redis: Redis;
let b: RunningServer;
const others: RunningServer[] = [];
const client = cookieFetch();
let env: Record<string, string>;
let userId: number;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  scratch = await createScratchPostgres();
  env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl as string, LOG_LEVEL: "warn" };
  b = await spawnServer(env);
  // The first account is the admin: it may generate courses.
  const registered = await client.call(`${b.url}/api/register`, { method: "POST", body: newAccount() });
  expect(registered.status).toBe(201);
  userId = ((await registered.json()) as { id: number }).id;
  await pointSpawnedOpenAiAt(client, b.url, fake, FAKE_KEY);
  db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  redis = new Redis(redisUrl as string);
}, 90_000);
afterAll(async () => {
  for (const server of [b, ...others]) server?.child.kill("SIGKILL");
  await Promise.all([b, ...others].map((s) => s?.exited));
  await db?.end();
  redis?.disconnect();
  await scratch?.drop();
  await fake?.close();
});

async function killed(server: RunningServer): Promise<number> {
  server.child.kill("SIGKILL");
  await server.exited;
  return Date.now();
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 250))) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
  }
}

describe("an instance killed with kill -9 while the other lives", () => {
  it("its course run becomes stopped within 30 s on the other, and resumes there", { timeout: 120_000 }, async () => {
    const a = await spawnServer(env);
    others.push(a);
    const course = (await (await client.call(`${a.url}/api/courses`, { method: "POST", body: { title: "Killed run" } })).json()) as {
      id: number;
    };
    // #hang: the lesson's provider call never answers, so the run is still running when A dies.
    const outline = { modules: [{ title: "M", description: "", lessons: [{ title: "Wait #hang", type: "reading", summary: "" }] }] };
    const approved = await client.call(`${a.url}/api/courses/${course.id}/generate/approve`, { method: "POST", body: { outline } });
    expect(approved.status).toBe(201);
    const owner = (await db.query("select owner from course_generation_runs where course_id = $1", [course.id])).rows[0]?.owner;
    expect(owner).toEqual(expect.any(String));

    const at = await killed(a);
    const run = await poll(
      async () => (await (await client.call(`${b.url}/api/courses/${course.id}/generation`)).json()) as { status: string; error: string },
      (r) => r.status !== "running",
      35_000,
    );
    expect(Date.now() - at).toBeLessThan(30_000);
    expect(run).toMatchObject({ status: "stopped", error: INTERRUPTED });
    const resumed = await client.call(`${b.url}/api/courses/${course.id}/generation/resume`, { method: "POST" });
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as { status: string }).status).toBe("running");
    expect((await client.call(`${b.url}/api/courses/${course.id}/generation/stop`, { method: "POST" })).status).toBe(200);
  });

  it("its reply becomes incomplete within 30 s on the other, with the text that arrived, and the chat takes new replies", {
    timeout: 120_000,
  }, async () => {
    const a = await spawnServer(env);
    others.push(a);
    const chatId = ((await (await client.call(`${a.url}/api/chats`, { method: "POST", body: {} })).json()) as { id: number }).id;
    const stream = await jsonPost(`${a.url}/api/chats/${chatId}/reply`, client.cookie, { content: "story #hang" });
    await readEvents(stream, (event) => event.type === "delta");
    const at = await killed(a);
    const reply = await poll(
      async () =>
        (await db.query("select content, status, error from messages where chat_id = $1 and role = 'assistant'", [chatId])).rows[0] as {
          content: string;
          status: string;
          error: string;
        },
      (r) => r?.status !== "streaming",
      35_000,
    );
    expect(Date.now() - at).toBeLessThan(30_000);
    expect(reply).toMatchObject({ status: "incomplete", error: expect.stringMatching(/restarted/) });
    expect(reply.content.startsWith("Echo: story")).toBe(true);
    expect((await fetch(`${b.url}/api/chats/${chatId}/stream`, { headers: { cookie: client.cookie } })).status).toBe(204);
    const next = await jsonPost(`${b.url}/api/chats/${chatId}/reply`, client.cookie, { content: "again" });
    expect(next.status).toBe(200);
    expect((await readEvents(next)).at(-1)?.type).toBe("done");
  });
});

describe("a reply's text left in Redis with a NUL", () => {
  it("never stops a start or the sweep: the reply is closed with the NUL dropped", { timeout: 120_000 }, async () => {
    const chatId = ((await (await client.call(`${b.url}/api/chats`, { method: "POST", body: {} })).json()) as { id: number }).id;
    const gone = `gone-${randomUUID()}`;
    await db.query("insert into messages (chat_id, user_id, role, content, status) values ($1, $2, 'user', 'hi', 'complete')", [
      chatId,
      userId,
    ]);
    const inserted = await db.query(
      "insert into messages (chat_id, user_id, role, content, status, generation_owner) values ($1, $2, 'assistant', 'Half', 'streaming', $3) returning id",
      [chatId, userId, gone],
    );
    const messageId = inserted.rows[0]?.id as number;
    await redis.set(`gen:content:${gone}:${messageId}`, "Half a re\u0000ply", "EX", 600);

    // A start meets it (and so does B's sweep): the start succeeds and the row ends.
    const c = await spawnServer(env);
    others.push(c);
    expect((await fetch(`${c.url}/api/payment-settings`)).status).toBe(200);
    const reply = await poll(
      async () =>
        (await db.query("select content, status from messages where id = $1", [messageId])).rows[0] as { content: string; status: string },
      (r) => r.status !== "streaming",
      20_000,
    );
    expect(reply).toEqual({ content: "Half a reply", status: "incomplete" });
    expect(c.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });
});
