// GET /api/ai/platforms/turned-off (issue 14, "a disabled platform"): the chat names the platforms that are set up
// but turned off, for every signed-in user; nothing about keys or addresses, and nobody signed out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let member: CookieClient;

async function setStatus(slug: string, status: "active" | "inactive") {
  const platform = ((await admin.get("/api/ai-platforms")).json() as { id: number; slug: string }[]).find((p) => p.slug === slug);
  expect((await admin.patch(`/api/admin/ai-platforms/${platform?.id}`, { status })).statusCode).toBe(200);
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  member = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("GET /api/ai/platforms/turned-off", () => {
  it("lists platforms set up but turned off, by name, to any signed-in user; not ones never set up, nor ones on", async () => {
    expect((await member.get("/api/ai/platforms/turned-off")).json()).toEqual([]);
    await pointPlatformAt(admin, "openai", fake);
    await pointPlatformAt(admin, "mistral", fake);
    await setStatus("openai", "inactive");
    // The platforms never given a key (Anthropic, Deepseek...) are not named: there is nothing to turn on.
    const res = await member.get("/api/ai/platforms/turned-off");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ slug: "openai", name: "OpenAI" }]);
    expect(res.body).not.toContain(fake.url);
    await setStatus("openai", "active");
    expect((await admin.get("/api/ai/platforms/turned-off")).json()).toEqual([]);
  });

  it("answers 401 to nobody signed in", async () => {
    const res = await new CookieClient(t.app).get("/api/ai/platforms/turned-off");
    expect(res.statusCode).toBe(401);
  });
});
