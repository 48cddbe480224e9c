import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { eventOf, jsonPost, readEvents, replyText } from "../helpers/sse-reader.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/** A reply runs on instance A; the browser reloads onto B (resume) or presses Stop there. */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let fake: FakeProvider;
let a: RunningServer;
let b: RunningServer;
const client = cookieFetch();

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  scratch = await createScratchPostgres();
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, LOG_LEVEL: "warn" };
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  expect((await client.call(`${a.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
  await pointSpawnedOpenAiAt(client, a.url, fake, FAKE_KEY);
}, 90_000);
afterAll(async () => {
  a?.child.kill("SIGTERM");
  b?.child.kill("SIGTERM");
  await Promise.all([a?.exited, b?.exited]);
  await scratch?.drop();
  await fake?.close();
});

async function newChat(server: RunningServer): Promise<number> {
  const res = await client.call(`${server.url}/api/chats`, { method: "POST", body: {} });
  return ((await res.json()) as { id: number }).id;
}

describe("a reply across two instances", () => {
  it("started on A, resumed on B after a reload: no text repeated or lost", { timeout: 60_000 }, async () => {
    const chatId = await newChat(a);
    const leave = new AbortController();
    const first = await jsonPost(`${a.url}/api/chats/${chatId}/reply`, client.cookie, { content: "tell me #slow" }, leave.signal);
    const seen = await readEvents(first, (_e, all) => all.filter((x) => x.type === "delta").length >= 3);
    leave.abort();
    expect(replyText(seen).length).toBeGreaterThan(0);

    const resumed = await fetch(`${b.url}/api/chats/${chatId}/stream`, { headers: { cookie: client.cookie } });
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed);
    expect(events[0]?.type).toBe("snapshot");
    const done = eventOf(events.at(-1), "done");
    expect(done.assistantMessage.status).toBe("complete");
    expect(replyText(events)).toBe(done.assistantMessage.content);
    expect(done.assistantMessage.content.startsWith("Slow reply:")).toBe(true);
    // Relayed through Redis, the done still carries what the reply changed, as B reads it.
    const chat = await (await client.call(`${b.url}/api/chats/${chatId}`)).json();
    expect(done.after?.chat).toEqual(chat);
    expect(done.after?.shown.map((m) => m.id).at(-1)).toBe(done.assistantMessage.id);
  });

  it("stopped from B while A writes it: A's stream ends with what arrived, stored as incomplete", { timeout: 60_000 }, async () => {
    const chatId = await newChat(a);
    const stream = await jsonPost(`${a.url}/api/chats/${chatId}/reply`, client.cookie, { content: "go #slow" });
    const events = await readEvents(stream, (event, all) => {
      if (event.type === "delta" && all.filter((x) => x.type === "delta").length === 2) {
        void jsonPost(`${b.url}/api/chats/${chatId}/stop`, client.cookie).then(async (r) =>
          expect(await r.json()).toEqual({ stopped: true }),
        );
      }
      return event.type === "done";
    });
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("incomplete");
    const stored = (await (await client.call(`${b.url}/api/chats/${chatId}/messages`)).json()) as {
      role: string;
      content: string;
      status: string;
    }[];
    const reply = stored.find((m) => m.role === "assistant");
    expect(reply?.status).toBe("incomplete");
    expect(reply?.content).toBe(replyText(events));
    expect(reply?.content.length).toBeGreaterThan(0);
  });
});
