// GET /api/ai/platforms/turned-off (issue 14, "a disabled platform"): the chat names the platforms that are set up
// but turned off, for every signed-in user; nothing about keys or addresses, and nobody signed out.
// A turned-off platform chosen for an answer (issue 28, finding 9) is the caller's choice: 409 with what to do,
// on every AI path; a provider that cannot be reached stays 503.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformTurnedOff } from "../../src/server/modules/ai-platforms/resolve-platform.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { courseAiApi } from "../../src/shared/contracts/courses.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import { type FakeProvider, startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { FAKE_KEY, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let member: CookieClient;
let memberId: number;

async function setStatus(slug: string, status: "active" | "inactive") {
  const platform = (await admin.ok(aiPlatformsApi.list, {})).find((p) => p.slug === slug);
  expect((await admin.call(aiPlatformsApi.update, { params: { id: platform?.id ?? 0 }, body: { status } })).status).toBe(200);
}

beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
  const account = await registerAndSignIn(t.app);
  member = account.client;
  memberId = account.user.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("GET /api/ai/platforms/turned-off", () => {
  it("lists platforms set up but turned off, by name, to any signed-in user; not ones never set up, nor ones on", async () => {
    expect(await member.ok(aiPlatformsApi.turnedOff, {})).toEqual([]);
    await pointPlatformAt(admin, "openai", fake);
    await pointPlatformAt(admin, "mistral", fake);
    await setStatus("openai", "inactive");
    // The platforms never given a key (Anthropic, Deepseek...) are not named: there is nothing to turn on.
    const res = await member.call(aiPlatformsApi.turnedOff, {});
    expect(res.status).toBe(200);
    expect(res.data).toEqual([{ slug: "openai", name: "OpenAI" }]);
    expect(res.response.body).not.toContain(fake.url);
    await setStatus("openai", "active");
    expect(await admin.ok(aiPlatformsApi.turnedOff, {})).toEqual([]);
  });

  it("answers 401 to nobody signed in", async () => {
    const res = await callApp(t.app, aiPlatformsApi.turnedOff, {});
    expect(res.status).toBe(401);
  });
});

describe("a turned-off platform chosen for an answer", () => {
  const TURNED_OFF = { status: 409, body: { message: platformTurnedOff("OpenAI") } };
  /** The status and the whole body as sent (not parsed, so nothing extra in it goes unseen). */
  const answer = (res: { status: number; response: { json(): unknown } }) => ({ status: res.status, body: res.response.json() });
  const messagesOf = async (chatId: number) => (await member.ok(chatsApi.messages, { params: { id: chatId } })).items;
  const reply = (id: number, body: { content: string; platformSlug?: string }) => member.call(chatsApi.reply, { params: { id }, body });

  it("is refused with 409 and what to do on reply, regenerate, edit and /api/ai/chat; nothing is stored or asked", async () => {
    await pointPlatformAt(admin, "openai", fake);
    await pointPlatformAt(admin, "mistral", fake);
    // A conversation on Mistral, and one started on OpenAI while it was on.
    const chat = await newChat(member, { aiPlatform: "mistral" });
    expect(textOf(parseEvents((await reply(chat.id, { content: "hello" })).response.body))).toBe("Echo: hello");
    const onOpenAi = await newChat(member, { aiPlatform: "openai" });
    expect(textOf(parseEvents((await reply(onOpenAi.id, { content: "hi" })).response.body))).toBe("Echo: hi");
    await setStatus("openai", "inactive");
    try {
      const stored = await messagesOf(chat.id);
      const storedOnOpenAi = await messagesOf(onOpenAi.id);
      const userMessage = stored.find((m) => m.role === "user");
      const asked = fake.requests.length;

      expect(answer(await reply(chat.id, { content: "again", platformSlug: "openai" }))).toEqual(TURNED_OFF);
      expect(answer(await member.call(chatsApi.regenerate, { params: { id: chat.id }, body: { platformSlug: "openai" } }))).toEqual(
        TURNED_OFF,
      );
      const edit = { params: { id: chat.id, messageId: userMessage?.id ?? 0 }, body: { content: "edited", platformSlug: "openai" } };
      expect(answer(await member.call(chatsApi.editMessage, edit))).toEqual(TURNED_OFF);
      const oneShot = { platformSlug: "openai", messages: [{ role: "user" as const, content: "hi" }] };
      expect(answer(await member.call(chatsApi.aiChat, { body: oneShot }))).toEqual(TURNED_OFF);
      // The chat's own platform, chosen when the chat was started: the same answer.
      expect(answer(await reply(onOpenAi.id, { content: "still there?" }))).toEqual(TURNED_OFF);
      expect(answer(await member.call(chatsApi.regenerate, { params: { id: onOpenAi.id }, body: {} }))).toEqual(TURNED_OFF);

      expect(fake.requests.length).toBe(asked);
      expect(await messagesOf(chat.id)).toEqual(stored);
      expect(await messagesOf(onOpenAi.id)).toEqual(storedOnOpenAi);
      // Choosing another model works at once.
      const other = await reply(onOpenAi.id, { content: "on mistral", platformSlug: "mistral" });
      expect(textOf(parseEvents(other.response.body))).toBe("Echo: on mistral");
    } finally {
      await setStatus("openai", "active");
    }
  });

  it("course generation never picks it: a default model on a turned-off platform falls to one that is on", async () => {
    await pointPlatformAt(admin, "openai", fake);
    await pointPlatformAt(admin, "mistral", fake);
    expect((await admin.call(adminUsersApi.update, { params: { id: memberId }, body: { planType: "earlyAccess" } })).status).toBe(200);
    expect((await member.call(settingsApi.update, { body: { defaultModel: "openai/fake-model" } })).status).toBe(200);
    await setStatus("openai", "inactive");
    try {
      const asked = fake.requests.length;
      const res = await member.call(courseAiApi.describe, { body: { title: "Knots for sailors" } });
      expect(res.status).toBe(200);
      expect(fake.requests.length).toBe(asked + 1);
    } finally {
      await setStatus("openai", "active");
    }
  });

  it("a provider that cannot be reached still answers 503", async () => {
    const created = await admin.call(aiPlatformsApi.create, {
      body: {
        name: "Nowhere",
        slug: "nowhere",
        kind: "openai",
        apiKey: FAKE_KEY,
        baseUrl: "http://127.0.0.1:9/v1",
        settings: { models: ["fake-model"], temperature: 0.7, maxTokens: 1024, freeModels: ["fake-model"] },
      },
    });
    expect(created.status).toBe(201);
    const res = await member.call(chatsApi.aiChat, { body: { platformSlug: "nowhere", messages: [{ role: "user", content: "anyone?" }] } });
    expect(answer(res)).toEqual({ status: 503, body: { message: "Nowhere cannot be reached right now. Please try again later." } });
  });
});
