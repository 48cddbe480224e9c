// Provider failures leave one line in the log (issue 29, item 16): where the app turns a provider's failure into a
// 502 or a 422 (a reply, the one-shot chat, a connection test), an operator reads the provider, the model, the status
// answered, the provider's own status, the kind of failure and the request id, once per failure, and never a key or
// a prompt. The app's real logger writes its lines here, as in log-scan.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_FAILED } from "../../src/server/ai/provider-error.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt } from "../helpers/chat-setup.js";

const AI_KEY = "sk-provlog-RightKey-9a8b7c6d5e";
const WRONG_KEY = "sk-provlog-WrongKey-1f2e3d4c5b";
const PROMPT = "confidential prompt about the merger";

type Line = { level: number; msg: string; reqId?: string; req?: { url?: string }; [key: string]: unknown };

const lines: string[] = [];
let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
let platformId: number;

const parsed = () => lines.map((line) => JSON.parse(line) as Line);
const failures = (from: number) =>
  parsed()
    .slice(from)
    .filter((line) => line.msg === PROVIDER_FAILED);
/** The URL of the request a request id belongs to (Fastify's "incoming request" line). */
const urlOf = (reqId: unknown) => parsed().find((line) => line.reqId === reqId && line.msg === "incoming request")?.req?.url;

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake({ apiKey: AI_KEY });
  t = await buildTestApp({ env: { LOG_LEVEL: "debug" }, logStream: { write: (line) => void lines.push(line) } });
  ({ admin, user } = await adminAndUser(t.app));
  platformId = (await pointPlatformAt(admin, "openai", fake, { apiKey: AI_KEY })).id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const setKey = (apiKey: string) => admin.call(aiPlatformsApi.update, { params: { id: platformId }, body: { apiKey } });
const testPlatform = () => admin.call(aiPlatformsApi.test, { params: { id: platformId } });

describe("a provider failure in the log", () => {
  it("a reply the provider fails (its 500, our 502): one warning with provider, model, statuses and the request id", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "fake-model" });
    const from = lines.length;
    const input = { params: { id: chat.id }, body: { content: `${PROMPT} #error=500` } };
    const res = await user.call(chatsApi.reply, input);
    expect(parseEvents(res.response.body).find((e) => e.type === "error")).toMatchObject({ status: 502 });
    const found = failures(from);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      level: 40,
      provider: "openai",
      model: "fake-model",
      status: 502,
      providerStatus: 500,
      reason: "provider error",
    });
    expect(urlOf(found[0]?.reqId)).toBe(requestFor(chatsApi.reply, input).url);
  });

  it("the one-shot chat refused by the provider (its 422, our 502)", async () => {
    const from = lines.length;
    const res = await user.call(chatsApi.aiChat, {
      body: { platformSlug: "openai", model: "fake-model", messages: [{ role: "user", content: `${PROMPT} #error=422` }] },
    });
    expect(res.status).toBe(502);
    const found = failures(from);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      provider: "openai",
      model: "fake-model",
      status: 502,
      providerStatus: 422,
      reason: "request refused",
    });
    expect(urlOf(found[0]?.reqId)).toBe(chatsApi.aiChat.path);
  });

  it("a connection test with a wrong key (the provider's 401, our 422)", async () => {
    expect((await setKey(WRONG_KEY)).status).toBe(200);
    const from = lines.length;
    const res = await testPlatform();
    expect(res.status).toBe(422);
    const found = failures(from);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ provider: "openai", model: "fake-model", status: 422, providerStatus: 401, reason: "key refused" });
    expect(urlOf(found[0]?.reqId)).toBe(requestFor(aiPlatformsApi.test, { params: { id: platformId } }).url);
    expect((await setKey(AI_KEY)).status).toBe(200);
  });

  it("a call that works logs no failure", async () => {
    const from = lines.length;
    const res = await testPlatform();
    expect(res.status).toBe(200);
    expect(failures(from)).toEqual([]);
  });

  it("never holds a key or a prompt, in any line", () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).not.toContain(AI_KEY);
      expect(line).not.toContain(WRONG_KEY);
      expect(line).not.toContain(PROMPT);
    }
  });
});
