// AI Chat Settings (docs/product.md, Admin back office): admins manage the platforms, keys are stored encrypted and never
// sent back (only a hint), validation uses the product's messages, the model pickers list only usable platforms,
// and the chat-system prompt and the user's temperature reach the provider.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi, type CreatePlatformBody, type UpdatePlatformBody } from "../../src/shared/contracts/ai-platforms.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, FAKE_KEY, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

type Body = { temperature?: number; messages: { role: string; content: unknown }[] };

let t: TestApp;
let fake: FakeProvider;
let keyless: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  keyless = await startOpenAiCompatibleFake({ apiKey: null });
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await keyless?.close();
});

const adminList = () => admin.ok(aiPlatformsApi.list, {});
const platformId = async (slug: string) => (await adminList()).find((p) => p.slug === slug)?.id ?? 0;
const settings = { models: ["fake-model"], temperature: 0.5, maxTokens: 2048, freeModels: ["fake-model"] };
const newPlatform = (over: Partial<CreatePlatformBody> = {}): CreatePlatformBody => ({
  name: "Local Llama",
  slug: "local-llama",
  settings,
  ...over,
});
const create = (client: CookieClient, body: CreatePlatformBody) => client.call(aiPlatformsApi.create, { body });
/** A body the contract refuses, sent as it is. */
const createRaw = (client: CookieClient, rawBody: unknown) => client.call(aiPlatformsApi.create, { body: newPlatform() }, { rawBody });
const update = (client: CookieClient, id: number, body: UpdatePlatformBody) => client.call(aiPlatformsApi.update, { params: { id }, body });
const testConnection = (client: CookieClient, id: number) => client.call(aiPlatformsApi.test, { params: { id } });
const pickers = () => user.ok(aiPlatformsApi.forChat, {});
const reply = (chatId: number, content: string) => user.call(chatsApi.reply, { params: { id: chatId }, body: { content } });

describe("the admin list", () => {
  it("shows the four seeded platforms as Setup Required to admins only", async () => {
    const res = await admin.call(aiPlatformsApi.list, {});
    expect(res.status).toBe(200);
    const list = res.data;
    expect(list.map((p) => p.slug)).toEqual(["openai", "anthropic-claude", "deepseek", "mistral"]);
    for (const p of list) expect(p).toMatchObject({ usable: false, hasApiKey: false, apiKeyHint: null });
    expect((await user.call(aiPlatformsApi.list, {})).status).toBe(403);
    expect((await new CookieClient(t.app).call(aiPlatformsApi.list, {})).status).toBe(401);
    // Nothing is usable yet: the model pickers are empty.
    expect(await pickers()).toEqual([]);
  });
});

describe("API keys", () => {
  it("are stored encrypted and only ever shown as a hint", async () => {
    const key = "sk-live-SECRET-abcdefghijkl-9Z7q";
    const id = await platformId("openai");
    const patched = await update(admin, id, { apiKey: key });
    expect(patched.status).toBe(200);
    expect(patched.data).toMatchObject({ hasApiKey: true, usable: true, apiKeySource: "database" });
    const hint = patched.data.apiKeyHint ?? "";
    expect(hint.startsWith("sk-...")).toBe(true);
    expect(hint.endsWith("9Z7q")).toBe(true);
    const created = await create(admin, newPlatform({ slug: "keyed", name: "Keyed", apiKey: key }));
    expect(created.status).toBe(201);
    expect(created.data.apiKeyHint).toBe(hint);
    // The answers as sent, whatever the contract reads of them.
    const bodies = [
      patched.response.body,
      created.response.body,
      (await admin.call(aiPlatformsApi.list, {})).response.body,
      (await user.call(aiPlatformsApi.forChat, {})).response.body,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(key);
      expect(body).not.toContain("SECRET");
    }
    const rows = (
      await t.database.db.execute(sql`select api_key_encrypted, api_key_hint from ai_platforms where api_key_encrypted is not null`)
    ).rows as { api_key_encrypted: string; api_key_hint: string }[];
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.api_key_encrypted).not.toContain(key);
      expect(row.api_key_encrypted).not.toContain("SECRET");
      expect(row.api_key_hint).toBe(hint);
    }
    // Sealed with a fresh nonce each time: the same key never looks the same twice.
    expect(rows[0]?.api_key_encrypted).not.toBe(rows[1]?.api_key_encrypted);
  });

  it("cannot be changed, and platforms cannot be created or tested, by a non-admin (403, nothing changed)", async () => {
    const before = await adminList();
    const id = await platformId("deepseek");
    const attempts = [
      await update(user, id, { apiKey: "sk-attacker-0000", status: "inactive" }),
      await create(user, newPlatform({ slug: "sneaky" })),
      await testConnection(user, id),
    ];
    expect(attempts.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(await adminList()).toEqual(before);
    const anonymous = new CookieClient(t.app);
    expect((await update(anonymous, id, { status: "inactive" })).status).toBe(401);
  });
});

describe("creating a platform", () => {
  it("refuses bad input with the product's messages", async () => {
    const cases: [unknown, string][] = [
      [newPlatform({ name: "" }), "Name is required"],
      [{ slug: "x", settings }, "Name is required"],
      [newPlatform({ slug: "Local Llama" }), "Slug must contain only lowercase letters, numbers, and hyphens"],
      [newPlatform({ slug: "under_score" }), "Slug must contain only lowercase letters, numbers, and hyphens"],
      [newPlatform({ settings: { ...settings, temperature: 1.5 } }), "Temperature must be between 0 and 1"],
      [newPlatform({ settings: { ...settings, temperature: -0.1 } }), "Temperature must be between 0 and 1"],
      [newPlatform({ settings: { ...settings, maxTokens: 0 } }), "Max tokens must be at least 1"],
    ];
    for (const [body, message] of cases) {
      const res = await createRaw(admin, body);
      expect({ body, status: res.status, message: res.error.message }).toEqual({ body, status: 400, message });
    }
    expect((await adminList()).map((p) => p.slug)).not.toContain("local-llama");
  });

  it("refuses a taken slug (409) and ignores fields it does not know", async () => {
    const res = await createRaw(admin, {
      ...newPlatform({ slug: "extra-fields" }),
      id: 424242,
      apiKeyEncrypted: "forged",
      apiKeyHint: "sk-...forg",
      usable: true,
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ slug: "extra-fields", hasApiKey: false, apiKeyHint: null });
    expect(res.data.id).not.toBe(424242);
    const row = (await t.database.db.execute(sql`select id, api_key_encrypted, api_key_hint from ai_platforms where slug = 'extra-fields'`))
      .rows[0];
    expect(row).toEqual({ id: res.data.id, api_key_encrypted: null, api_key_hint: null });
    const again = await create(admin, newPlatform({ slug: "extra-fields", name: "Another" }));
    expect(again.status).toBe(409);
    expect((await adminList()).filter((p) => p.slug === "extra-fields")).toHaveLength(1);
  });

  it("makes a keyless OpenAI-compatible server with a base URL usable (and one without a base URL not)", async () => {
    const without = await create(admin, newPlatform({ slug: "no-url", name: "No URL" }));
    expect(without.data).toMatchObject({ usable: false, hasApiKey: false });
    const res = await create(admin, newPlatform({ baseUrl: keyless.url }));
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ kind: "openai-compatible", usable: true, hasApiKey: false });
    const slugs = (await pickers()).map((p) => p.slug);
    expect(slugs).toContain("local-llama");
    expect(slugs).not.toContain("no-url");
    const chat = await newChat(user, { aiPlatform: "local-llama" });
    const events = parseEvents((await reply(chat.id, "hi llama")).response.body);
    expect(textOf(events)).toBe("Echo: hi llama");
    expect(keyless.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});

describe("the OpenAI API a platform uses (decision 050)", () => {
  it("Chat Completions by default; Responses only on an OpenAI platform, tested and answered over /v1/responses", async () => {
    const plain = await create(admin, newPlatform({ slug: "plain-api", name: "Plain", kind: "openai" }));
    expect(plain.status, plain.response.body).toBe(201);
    expect(plain.data.api).toBe("chat-completions");
    // Any other kind: a 400 under `api`, nothing stored.
    const refused = await create(
      admin,
      newPlatform({ slug: "gateway-responses", name: "Gateway", kind: "openai-compatible", api: "responses", baseUrl: fake.url }),
    );
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      message: "The Responses API is only for OpenAI platforms",
      errors: { api: "The Responses API is only for OpenAI platforms" },
    });
    expect((await adminList()).some((p) => p.slug === "gateway-responses")).toBe(false);
    expect((await createRaw(admin, { ...newPlatform({ slug: "bad-api", kind: "openai" }), api: "soap" })).status).toBe(400);
    // Not an admin: 403, and signed out: 401.
    const id = plain.data.id;
    expect((await update(user, id, { api: "responses" })).status).toBe(403);
    expect((await update(new CookieClient(t.app), id, { api: "responses" })).status).toBe(401);

    const switched = await update(admin, id, { api: "responses", apiKey: FAKE_KEY, baseUrl: fake.url });
    expect(switched.status, switched.response.body).toBe(200);
    expect(switched.data.api).toBe("responses");
    // The connection test speaks the chosen API.
    const tested = await testConnection(admin, id);
    expect(tested.status, tested.response.body).toBe(200);
    expect(fake.requests.at(-1)?.path).toBe("/v1/responses");
    // A change of API: the last test no longer speaks for it.
    const back = await update(admin, id, { api: "chat-completions" });
    expect(back.data).toMatchObject({ api: "chat-completions", lastTest: null });
    await update(admin, id, { api: "responses" });
    // Another kind goes back to Chat Completions; asking it for Responses is refused. (Another kind is another
    // destination for the key: it is typed again, decision 063.)
    const otherKind = await update(admin, id, { kind: "openai-compatible", apiKey: FAKE_KEY });
    expect(otherKind.data.api).toBe("chat-completions");
    const mismatch = await update(admin, id, { api: "responses" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.error.errors).toEqual({ api: "The Responses API is only for OpenAI platforms" });
  });
});

describe("the model pickers and disabling", () => {
  it("list usable platforms to any signed-in user without keys, and drop a disabled one", async () => {
    const id = (await pointPlatformAt(admin, "mistral", fake)).id;
    expect((await pickers()).find((p) => p.slug === "mistral")).toMatchObject({
      name: "Mistral",
      slug: "mistral",
      models: ["fake-model", "missing-model"],
      defaultModel: "fake-model",
    });
    // The keys as sent (the contract's parse would drop any other).
    const sent: Record<string, unknown>[] = (await user.call(aiPlatformsApi.forChat, {})).response.json();
    const entry = sent.find((p) => p.slug === "mistral");
    expect(Object.keys(entry ?? {}).some((k) => /key|hint|secret|url/i.test(k))).toBe(false);
    const disabled = await update(admin, id, { status: "inactive" });
    expect(disabled.data).toMatchObject({ status: "inactive", usable: false, hasApiKey: true });
    const slugs = (await pickers()).map((p) => p.slug);
    expect(slugs).not.toContain("mistral");
    const chat = await newChat(user, { aiPlatform: "mistral" });
    const refused = await reply(chat.id, "hi");
    expect(refused.status).toBe(409);
    expect(refused.error.message).toBe("Mistral is turned off. Choose another model.");
    expect((await update(admin, id, { status: "active" })).data.usable).toBe(true);
    expect((await pickers()).map((p) => p.slug)).toContain("mistral");
  });
});

describe("testing a connection", () => {
  it("answers ok with the latency against a working provider, 422 with a clear message on a wrong key", async () => {
    const id = (await pointPlatformAt(admin, "deepseek", fake)).id;
    const lastTest = async () => (await adminList()).find((p) => p.id === id)?.lastTest;
    expect(await lastTest()).toBeNull();
    const ok = await testConnection(admin, id);
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ ok: true, model: "fake-model", latencyMs: expect.any(Number) });
    // The result is kept for the card (issue 29): passed, when, and what it said.
    expect(await lastTest()).toEqual({
      ok: true,
      at: expect.any(String),
      message: expect.stringMatching(/^fake-model answered in \d+ ms\.$/),
    });
    // A new key: the last result no longer speaks for the platform.
    await update(admin, id, { apiKey: "sk-wrong-key-000000" });
    expect(await lastTest()).toBeNull();
    const before = Date.now();
    const wrong = await testConnection(admin, id);
    expect(wrong.status).toBe(422);
    // Said to the admin on AI Chat Settings: what to check there, never "go to AI Chat Settings".
    expect(wrong.error.message).toBe("Deepseek refused the API key. Check the API key, then test again.");
    const failed = await lastTest();
    expect(failed).toEqual({
      ok: false,
      at: expect.any(String),
      message: "Deepseek refused the API key. Check the API key, then test again.",
    });
    expect(new Date(failed?.at ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // A user's call through the same key still sends them to an administrator.
    const chat = await newChat(user, { aiPlatform: "deepseek", model: "fake-model" });
    const refused = parseEvents((await reply(chat.id, "hi")).response.body).find((e) => e.type === "error");
    expect(refused).toMatchObject({
      message: "Deepseek refused the API key. An administrator can check it under Admin > AI Chat Settings.",
    });
    await update(admin, id, { apiKey: FAKE_KEY });
    expect(await lastTest()).toBeNull();
    // A model the provider does not know: what to check, on this page.
    await update(admin, id, { settings: { defaultModel: "missing-model" } });
    const unknown = await testConnection(admin, id);
    expect({ status: unknown.status, message: unknown.error.message }).toEqual({
      status: 422,
      message: 'Deepseek does not know the model "missing-model". Check the model names and the default model, then test again.',
    });
    await update(admin, id, { settings: { defaultModel: "fake-model" } });
  });

  it("names the address and what to check when the server is not reached (connection refused)", async () => {
    const id = (await pointPlatformAt(admin, "deepseek", fake)).id;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve)); // a port nothing listens on
    const nowhere = `http://127.0.0.1:${port}/v1`;
    expect((await update(admin, id, { baseUrl: nowhere, apiKey: FAKE_KEY })).status).toBe(200);
    const refused = await testConnection(admin, id);
    expect({ status: refused.status, message: refused.error.message }).toEqual({
      status: 422,
      message: `Deepseek could not be reached at ${nowhere}. Check the Base URL and that the server there is running, then test again.`,
    });
    await pointPlatformAt(admin, "deepseek", fake);
  });
});

describe("what the provider receives", () => {
  it("the chat-system global prompt as the system prompt, and the user's temperature", async () => {
    await pointPlatformAt(admin, "openai", fake);
    const ask = async () => {
      const chat = await newChat(user);
      await reply(chat.id, "who are you?");
      const body = fake.requests.at(-1)?.body as Body;
      return { system: body.messages.filter((m) => m.role === "system").map((m) => m.content), temperature: body.temperature };
    };
    expect(await ask()).toEqual({ system: [], temperature: 0.7 });
    await t.database.db.execute(
      sql`insert into global_ai_prompts (key, prompt, description) values ('chat-system', 'You are Tutor Bot. Be brief.', 'Chat')`,
    );
    expect((await user.call(settingsApi.update, { body: { temperature: "0.3" } })).status).toBe(200);
    expect(await ask()).toEqual({ system: ["You are Tutor Bot. Be brief."], temperature: 0.3 });
    // The non-streamed call gets the same.
    await user.call(chatsApi.aiChat, { body: { platformSlug: "openai", messages: [{ role: "user", content: "hi" }] } });
    const body = fake.requests.at(-1)?.body as Body;
    expect(body.messages[0]).toEqual({ role: "system", content: "You are Tutor Bot. Be brief." });
    expect(body.temperature).toBe(0.3);
  });
});
