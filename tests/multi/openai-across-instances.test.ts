import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { newAccount } from "../helpers/build-test-app.js";
import { FAKE_KEY } from "../helpers/chat-setup.js";
import { cookieFetch, pointSpawnedOpenAiAt, type RunningServer, spawnServer } from "../helpers/spawn-server.js";
import { createScratchPostgres } from "../helpers/test-database.js";

/**
 * The OpenAI-compatible endpoint across instances (issue 35, decision 051): two app processes on one PostgreSQL and one
 * Redis, as behind a load balancer. A token revoked on A is refused at once on B, where it was just used: nothing
 * caches a token (decision 049), and this keeps it so.
 */
const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) throw new Error("tests/multi needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/0)");

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let fake: Awaited<ReturnType<typeof startOpenAiCompatibleFake>>;
let a: RunningServer;
let b: RunningServer;
const admin = cookieFetch();

beforeAll(async () => {
  [scratch, fake] = await Promise.all([createScratchPostgres(), startOpenAiCompatibleFake()]);
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redisUrl, LOG_LEVEL: "warn" };
  [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  const first = await admin.call(`${a.url}/api/register`, { method: "POST", body: newAccount() });
  expect((await first.json()).role).toBe("admin");
  await pointSpawnedOpenAiAt(admin, a.url, fake, FAKE_KEY);
}, 90_000);
afterAll(async () => {
  a?.child.kill("SIGTERM");
  b?.child.kill("SIGTERM");
  await Promise.all([a?.exited, b?.exited]);
  await Promise.all([scratch?.drop(), fake?.close()]);
});

describe("a token across two instances", () => {
  it("answers on both, and once revoked on A, B answers 401 on its very next request", async () => {
    const user = cookieFetch();
    expect((await user.call(`${b.url}/api/register`, { method: "POST", body: newAccount() })).status).toBe(201);
    const made = await user.call(`${b.url}/api/tokens`, {
      method: "POST",
      body: { name: "script", expiresInDays: 7, scopes: ["chat", "models"] },
    });
    expect(made.status).toBe(201);
    const { id, token } = (await made.json()) as { id: number; token: string };
    const on = (server: RunningServer) => new OpenAI({ apiKey: token, baseURL: `${server.url}/v1`, maxRetries: 0 });

    for (const server of [a, b]) {
      const answer = await on(server).chat.completions.create({
        model: "openai/fake-model",
        messages: [{ role: "user", content: "hello" }],
      });
      expect(answer.choices[0]?.message.content).toBe("Echo: hello");
    }
    expect((await on(b).models.list()).data.map((model) => model.id)).toContain("openai/fake-model");

    expect((await user.call(`${a.url}/api/tokens/${id}`, { method: "DELETE" })).status).toBe(204);
    for (const server of [b, a]) {
      const refused = await on(server)
        .models.list()
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    }
  });
});
