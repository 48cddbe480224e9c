import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { cookieFetch, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { jsonPost, readEvents, replyText } from "../helpers/sse-reader.js";

// The real entry point on PGlite in a folder of its own, killed in the middle of a reply.
const dataDir = mkdtempSync(path.join(tmpdir(), "lumora-chat-restart-"));
const fakeReady = startOpenAiCompatibleFake();
afterAll(async () => {
  await (await fakeReady).close();
  rmSync(dataDir, { recursive: true, force: true });
});

type StoredMessage = { role: string; content: string; status: string; error: string | null };

async function setUp(server: RunningServer, client: ReturnType<typeof cookieFetch>) {
  const fake = await fakeReady;
  expect((await client.call(`${server.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
  const platforms = (await (await client.call(`${server.url}/api/ai-platforms`)).json()) as { id: number; slug: string }[];
  const id = platforms.find((p) => p.slug === "openai")?.id;
  const body = {
    apiKey: FAKE_KEY,
    baseUrl: fake.url,
    settings: { models: ["fake-model"], defaultModel: "fake-model", freeModels: ["fake-model"] },
  };
  expect((await client.call(`${server.url}/api/admin/ai-platforms/${id}`, { method: "PATCH", body })).status).toBe(200);
  return ((await (await client.call(`${server.url}/api/chats`, { method: "POST", body: {} })).json()) as { id: number }).id;
}

describe("a reply when the server goes away", () => {
  it("kill -9 mid-reply: the next start keeps the saved text and marks it incomplete, never streaming", { timeout: 120_000 }, async () => {
    const client = cookieFetch();
    const first = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
    let second: RunningServer | undefined;
    try {
      const chatId = await setUp(first, client);
      // #hang: one piece, then the provider goes quiet (well inside the 30 s chunk timeout), so the
      // reply is still being written when the process dies, however loaded the machine is.
      const stream = await jsonPost(`${first.url}/api/chats/${chatId}/reply`, client.cookie, { content: "story #hang" });
      const seen = await readEvents(stream, (event) => event.type === "delta");
      // Saved at least every second: wait past one save.
      await new Promise((r) => setTimeout(r, 1500));
      first.child.kill("SIGKILL");
      await first.exited;

      second = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
      const messages = (await (await client.call(`${second.url}/api/chats/${chatId}/messages`)).json()) as StoredMessage[];
      const reply = messages.find((m) => m.role === "assistant");
      expect(reply?.status).toBe("incomplete");
      expect(reply?.error).toMatch(/restarted/);
      expect(reply?.content).toBe(replyText(seen));
      expect(reply?.content.length).toBeGreaterThan(0);
      expect((await fetch(`${second.url}/api/chats/${chatId}/stream`, { headers: { cookie: client.cookie } })).status).toBe(204);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      first.child.kill("SIGKILL");
      second?.child.kill("SIGKILL");
      await Promise.all([first.exited, second?.exited]);
    }
  });

  it("SIGTERM mid-reply: the stream ends with what arrived, stored incomplete, and the process exits cleanly", {
    timeout: 120_000,
  }, async () => {
    const client = cookieFetch();
    const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
    onTestFinished(async () => {
      server.child.kill("SIGKILL");
      await server.exited;
    });
    const chatId = await setUpAgain(server, client);
    const stream = await jsonPost(`${server.url}/api/chats/${chatId}/reply`, client.cookie, { content: "again #slow" });
    const events = await readEvents(stream, (event, all) => {
      if (event.type === "delta" && all.filter((x) => x.type === "delta").length === 3) server.child.kill("SIGTERM");
      return event.type === "done";
    });
    const done = events.at(-1);
    expect(done?.type === "done" && done.assistantMessage.status).toBe("incomplete");
    expect(done?.type === "done" && done.assistantMessage.content).toBe(replyText(events));
    expect(await server.exited).toBe(0);
  });
});

/** The second test reuses the database: sign in as a new (non-admin) user of the configured platform. */
async function setUpAgain(server: RunningServer, client: ReturnType<typeof cookieFetch>): Promise<number> {
  expect((await client.call(`${server.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
  return ((await (await client.call(`${server.url}/api/chats`, { method: "POST", body: {} })).json()) as { id: number }).id;
}
