// Platform Settings (docs/product.md, Admin back office): admins read and save the platform-wide settings, the SMTP
// password never leaves the server, the first save creates the one settings row, and every switch is
// enforced by the server (registration closed, chat history off, model selection off).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrPromoteAdmin } from "../../src/server/modules/auth/create-admin.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import {
  DEFAULT_MODEL_UNAVAILABLE,
  platformSettingsApi,
  REGISTRATION_CLOSED,
  TOOL_CALL_TIMEOUT_INVALID,
  TOOL_MAX_STEPS_INVALID,
  type UpdatePlatformSettingsBody,
} from "../../src/shared/contracts/platform-settings.js";
import { publicContentApi } from "../../src/shared/contracts/public-content.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { callApp, requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

const MODELS = { models: ["fake-model", "other-model"], defaultModel: "fake-model", freeModels: ["fake-model", "other-model"] };

let t: TestApp;
let fake: FakeProvider;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startOpenAiCompatibleFake();
  t = await buildTestApp();
  ({ admin, user } = await adminAndUser(t.app));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const settingsRows = async () => (await t.database.db.execute(sql`select id from platform_settings`)).rows;
const save = (body: UpdatePlatformSettingsBody) => admin.call(platformSettingsApi.update, { body });
/** A body the contract does not allow (a wrong type, a field it does not name), sent unchanged. */
const saveRaw = (rawBody: unknown) => admin.call(platformSettingsApi.update, { body: {} }, { rawBody });
const adminSettings = () => admin.ok(platformSettingsApi.get, {});
const readPublic = () => callApp(t.app, publicContentApi.platformSettings, {});
const publicSettings = async () => (await readPublic()).data;
const setPlatformStatus = (id: number | undefined, status: "active" | "inactive") =>
  admin.call(aiPlatformsApi.update, { params: { id: Number(id) }, body: { status } });
const reply = (client: CookieClient, id: number, body: { content: string; platformSlug?: string; model?: string }) =>
  client.call(chatsApi.reply, { params: { id }, body });
const lastModelAsked = () => (fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)?.body as { model?: string })?.model;

describe("who may call", () => {
  it("refuses a visitor (401) and a member (403) on both calls", async () => {
    const visitor = new CookieClient(t.app);
    for (const [client, status] of [
      [visitor, 401],
      [user, 403],
    ] as const) {
      expect((await client.call(platformSettingsApi.get, {})).status).toBe(status);
      const patched = await client.call(platformSettingsApi.update, { body: { platformName: "Hijacked" } });
      expect(patched.status).toBe(status);
      expect(patched.error.message).toBeTruthy();
    }
    expect((await publicSettings()).platformName).toBe("Lumora");
  });
});

describe("reading and saving", () => {
  it("answers the product's defaults before anything is saved, with no row written", async () => {
    const res = await admin.call(platformSettingsApi.get, {});
    expect(res.status).toBe(200);
    // The answers unparsed (the contract's parse would drop a field it does not name).
    expect(res.response.json()).toEqual({
      platformName: "Lumora",
      defaultModel: "openai-gpt4",
      // Nothing is set up: the product's default stays, and follows the platforms once one is (decision 061).
      defaultModelFollows: true,
      allowRegistration: true,
      enableHistory: true,
      enableModelSelection: true,
      smtpHost: null,
      smtpPort: "587",
      smtpSecure: false,
      smtpUser: null,
      smtpPassSet: false,
      smtpFromEmail: null,
      smtpFromName: null,
      supportEmail: null,
      toolMaxSteps: 8,
      toolCallTimeoutSeconds: 30,
      apiTokenPlans: ["free", "earlyAccess"],
      updatedAt: null,
    });
    expect(await settingsRows()).toHaveLength(0);
    expect((await readPublic()).response.json()).toEqual({
      platformName: "Lumora",
      allowRegistration: true,
      enableHistory: true,
      enableModelSelection: true,
      supportEmail: null,
      currency: "USD",
      earlyAccessPrice: "297",
    });
  });

  it("creates exactly one row when several first saves race, and answers the saved settings", async () => {
    const names = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"];
    const results = await Promise.all(names.map((platformName) => save({ platformName })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await settingsRows()).toHaveLength(1);
    const final = await adminSettings();
    expect(names).toContain(final.platformName);
    expect(final.updatedAt).not.toBeNull();
  });

  it("saves what was sent, trimmed, keeps the rest, and the public read follows", async () => {
    const res = await save({ platformName: "  Acme Academy  " });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ platformName: "Acme Academy", defaultModel: "openai-gpt4", allowRegistration: true });
    expect((await adminSettings()).platformName).toBe("Acme Academy");
    expect((await publicSettings()).platformName).toBe("Acme Academy");
    // An empty body changes nothing.
    expect((await save({})).data.platformName).toBe("Acme Academy");
  });

  it("saves the chat tools' step bound and call timeout at their limits", async () => {
    expect((await save({ toolMaxSteps: 20, toolCallTimeoutSeconds: 1 })).data).toMatchObject({
      toolMaxSteps: 20,
      toolCallTimeoutSeconds: 1,
    });
    expect((await save({ toolMaxSteps: 1, toolCallTimeoutSeconds: 300 })).data).toMatchObject({
      toolMaxSteps: 1,
      toolCallTimeoutSeconds: 300,
    });
    expect(await adminSettings()).toMatchObject({ toolMaxSteps: 1, toolCallTimeoutSeconds: 300, platformName: "Acme Academy" });
    expect((await save({ toolMaxSteps: 8, toolCallTimeoutSeconds: 30 })).status).toBe(200);
  });

  it("refuses each wrong field with the form's message, and never answers 5xx to junk", async () => {
    const cases: [unknown, string, string][] = [
      [{ platformName: "" }, "platformName", "Platform name is required"],
      [{ platformName: "   " }, "platformName", "Platform name is required"],
      [{ platformName: null }, "platformName", "Platform name is required"],
      [{ platformName: "x".repeat(61) }, "platformName", "Platform name cannot exceed 60 characters"],
      [{ platformName: "Two\nlines" }, "platformName", "Platform name must be a single line of text"],
      [{ defaultModel: "" }, "defaultModel", "Default model is required"],
      [{ defaultModel: "  " }, "defaultModel", "Default model is required"],
      [{ defaultModel: 42 }, "defaultModel", "Default model is required"],
      [{ allowRegistration: "false" }, "allowRegistration", "Allow registration must be on or off"],
      [{ enableHistory: 0 }, "enableHistory", "Chat history must be on or off"],
      [{ enableModelSelection: null }, "enableModelSelection", "Model selection must be on or off"],
      [{ toolMaxSteps: 0 }, "toolMaxSteps", TOOL_MAX_STEPS_INVALID],
      [{ toolMaxSteps: 21 }, "toolMaxSteps", TOOL_MAX_STEPS_INVALID],
      [{ toolMaxSteps: 2.5 }, "toolMaxSteps", TOOL_MAX_STEPS_INVALID],
      [{ toolMaxSteps: "8" }, "toolMaxSteps", TOOL_MAX_STEPS_INVALID],
      [{ toolCallTimeoutSeconds: 0 }, "toolCallTimeoutSeconds", TOOL_CALL_TIMEOUT_INVALID],
      [{ toolCallTimeoutSeconds: 301 }, "toolCallTimeoutSeconds", TOOL_CALL_TIMEOUT_INVALID],
      [{ toolCallTimeoutSeconds: null }, "toolCallTimeoutSeconds", TOOL_CALL_TIMEOUT_INVALID],
    ];
    for (const [body, field, message] of cases) {
      const res = await saveRaw(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.error.errors?.[field]).toBe(message);
    }
    // Bodies that are not a JSON object, or not JSON at all: sent raw.
    for (const payload of ["null", "[]", '"text"', "12", "{", '{"platformName":{"$ne":1}}', `{"platformName":"${"a".repeat(200_000)}"}`]) {
      const request = requestFor(platformSettingsApi.update, { body: {} });
      const res = await admin.request({ ...request, payload, headers: { "content-type": "application/json" } });
      expect({ payload: payload.slice(0, 30), status: res.statusCode }).toEqual({ payload: payload.slice(0, 30), status: 400 });
    }
    expect((await adminSettings()).platformName).toBe("Acme Academy");
  });

  it("takes as default model only a model of a platform that is set up", async () => {
    // Nothing is set up: a new value is refused, the stored one is accepted as it is.
    const refused = await save({ defaultModel: "openai/fake-model" });
    expect(refused.status).toBe(400);
    // The refusal whole, unparsed.
    expect(refused.response.json()).toEqual({ message: DEFAULT_MODEL_UNAVAILABLE, errors: { defaultModel: DEFAULT_MODEL_UNAVAILABLE } });
    expect((await save({ defaultModel: "openai-gpt4", platformName: "Acme Academy" })).status).toBe(200);

    await pointPlatformAt(admin, "openai", fake, { settings: MODELS });
    // Decision 061: the product's default names no platform; once one can answer, the page shows it, the one chats use.
    expect(await adminSettings()).toMatchObject({ defaultModel: "openai", defaultModelFollows: true });
    for (const value of ["openai", "openai/other-model", "openai/fake-model"]) {
      const res = await save({ defaultModel: value });
      expect({ value, status: res.status }).toEqual({ value, status: 200 });
      expect(res.data.defaultModel).toBe(value);
    }
    for (const value of ["openai/not-offered", "mistral", "deepseek/x", "no-such-platform"]) {
      const res = await save({ defaultModel: value });
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
      expect(res.error.errors?.defaultModel).toBe(DEFAULT_MODEL_UNAVAILABLE);
    }
    expect(await adminSettings()).toMatchObject({ defaultModel: "openai/fake-model", defaultModelFollows: false });
  });

  it("a saved default model whose platform is turned off follows the platforms that can answer, and comes back with it", async () => {
    const platforms = await admin.ok(aiPlatformsApi.list, {});
    const openai = platforms.find((p) => p.slug === "openai");
    await pointPlatformAt(admin, "mistral", fake, { settings: MODELS });
    expect((await setPlatformStatus(openai?.id, "inactive")).status).toBe(200);
    expect(await adminSettings()).toMatchObject({ defaultModel: "mistral", defaultModelFollows: true });
    // Saving the other settings with what the page shows makes it the admin's choice.
    const saved = await save({ defaultModel: "mistral", platformName: "Acme Academy" });
    expect(saved.data).toMatchObject({ defaultModel: "mistral", defaultModelFollows: false });
    expect((await save({ defaultModel: "openai/fake-model" })).status).toBe(400);
    expect((await setPlatformStatus(openai?.id, "active")).status).toBe(200);
    expect((await save({ defaultModel: "openai/fake-model" })).status).toBe(200);
    expect(await adminSettings()).toMatchObject({ defaultModel: "openai/fake-model", defaultModelFollows: false });
    const mistral = platforms.find((p) => p.slug === "mistral");
    expect((await setPlatformStatus(mistral?.id, "inactive")).status).toBe(200);
  });
});

describe("the SMTP password", () => {
  it("is never sent back, only whether one is stored", async () => {
    const password = "smtp-Pa55word-NEVER-SHOWN";
    const sealed = t.app.ctx.secrets.seal(password);
    await t.database.db.execute(
      sql`update platform_settings set smtp_pass_encrypted = ${sealed}, smtp_host = 'smtp.example.com', smtp_user = 'mailer', smtp_from_email = 'mailer@example.com'`,
    );
    // The answers unparsed: what the contract does not name must not be there either.
    const answers = [
      (await admin.call(platformSettingsApi.get, {})).response,
      (await save({ platformName: "Acme Academy" })).response,
      (await save({})).response,
      (await readPublic()).response,
    ];
    expect(answers[0]?.json()).toMatchObject({ smtpPassSet: true, smtpHost: "smtp.example.com", smtpUser: "mailer" });
    expect(answers[1]?.json().smtpPassSet).toBe(true);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(password);
      expect(res.body).not.toContain(sealed);
      expect(res.body).not.toContain('smtpPass"');
      expect(res.body).not.toContain("Encrypted");
    }
    // Internal columns cannot be written: smtpPassEncrypted and smtpPassSet are dropped; a blank password keeps the stored one.
    const smuggled = await saveRaw({ smtpPass: "", smtpPassEncrypted: "x", smtpPassSet: false });
    expect(smuggled.status).toBe(200);
    expect(smuggled.data).toMatchObject({ smtpHost: "smtp.example.com", smtpPassSet: true });
    const stored = (await t.database.db.execute(sql`select smtp_pass_encrypted from platform_settings`)).rows[0];
    expect(stored?.smtp_pass_encrypted).toBe(sealed);
    // A new password is stored sealed, never as sent.
    const changed = await save({ smtpPass: "a-new-Pa55word" });
    expect(changed.status).toBe(200);
    expect(changed.response.body).not.toContain("a-new-Pa55word");
    const resealed = (await t.database.db.execute(sql`select smtp_pass_encrypted from platform_settings`)).rows[0]?.smtp_pass_encrypted;
    expect(resealed).not.toBe(sealed);
    expect(resealed).not.toContain("a-new-Pa55word");
    expect(t.app.ctx.secrets.open(String(resealed))).toBe("a-new-Pa55word");
    // The public read has no SMTP field at all.
    expect(Object.keys(answers[3]?.json() ?? {}).some((k) => k.startsWith("smtp"))).toBe(false);
  });
});

describe("Allow registration", () => {
  it("off: sign-ups are refused with 403 and no account is made; create-admin still works; on again: open", async () => {
    expect((await save({ allowRegistration: false })).data.allowRegistration).toBe(false);
    expect((await publicSettings()).allowRegistration).toBe(false);
    const count = async () => Number((await t.database.db.execute(sql`select count(*)::int as n from users`)).rows[0]?.n);
    const before = await count();
    const body = { ...newAccount(), planType: "free" as const };
    const refused = await new CookieClient(t.app).call(authApi.register, { body });
    expect(refused.status).toBe(403);
    // The refusal whole, unparsed.
    expect(refused.response.json()).toEqual({ message: REGISTRATION_CLOSED });
    expect(refused.headers["set-cookie"]).toBeUndefined();
    expect(await count()).toBe(before);

    // The command line still creates an admin while sign-ups are closed.
    const made = await createOrPromoteAdmin({ db: t.database.db, input: { username: `ops${Date.now()}`, password: "Str0ng!pass" } });
    expect(made.created).toBe(true);
    expect(await count()).toBe(before + 1);

    expect((await save({ allowRegistration: true })).status).toBe(200);
    expect((await new CookieClient(t.app).call(authApi.register, { body })).status).toBe(201);
  });
});

describe("Chat history", () => {
  it("off: every new chat is temporary (not listed), whatever the user's Save Chat History says; on: kept again", async () => {
    expect((await user.ok(settingsApi.get, {})).saveHistory).toBe(true);
    expect((await save({ enableHistory: false })).data.enableHistory).toBe(false);
    expect((await publicSettings()).enableHistory).toBe(false);
    const temporary = await user.ok(chatsApi.create, { body: {} });
    expect(temporary.temporary).toBe(true);
    const listed = (await user.ok(chatsApi.list, {})).items;
    expect(listed.map((c) => c.id)).not.toContain(temporary.id);

    expect((await save({ enableHistory: true })).status).toBe(200);
    const kept = await user.ok(chatsApi.create, { body: {} });
    expect(kept.temporary).toBe(false);
    // A chat is listed once it has a message (an empty one never is).
    await user.call(chatsApi.addMessage, { params: { id: kept.id }, body: { content: "kept" } });
    expect((await user.ok(chatsApi.list, {})).items.map((c) => c.id)).toContain(kept.id);
  });
});

describe("Model selection", () => {
  it("on: the model the client picks answers", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "other-model" });
    const res = await reply(user, chat.id, { content: "hello there", platformSlug: "openai", model: "other-model" });
    expect(textOf(parseEvents(res.response.body))).toBe("Echo: hello there");
    expect(lastModelAsked()).toBe("other-model");
  });

  it("off: the default model answers every chat, whatever the client asks for", async () => {
    expect((await save({ defaultModel: "openai/fake-model", enableModelSelection: false })).status).toBe(200);
    expect((await publicSettings()).enableModelSelection).toBe(false);

    const created = await user.call(chatsApi.create, { body: { aiPlatform: "openai", model: "other-model" } });
    expect(created.data).toMatchObject({ aiPlatform: "openai", model: "fake-model" });
    const chatId = created.data.id;

    // A change of model is ignored; a rename still works.
    const patched = await user.call(chatsApi.update, { params: { id: chatId }, body: { aiPlatform: "openai", model: "other-model" } });
    expect(patched.status).toBe(200);
    expect(patched.data.model).toBe("fake-model");
    expect(await user.ok(chatsApi.update, { params: { id: chatId }, body: { title: "Renamed", model: "other-model" } })).toMatchObject({
      title: "Renamed",
      model: "fake-model",
    });

    const answered = await reply(user, chatId, { content: "which model", platformSlug: "openai", model: "other-model" });
    const done = parseEvents(answered.response.body).at(-1);
    expect(done?.type === "done" && done.assistantMessage.model).toBe("fake-model");
    expect(lastModelAsked()).toBe("fake-model");

    const regenerated = await user.call(chatsApi.regenerate, {
      params: { id: chatId },
      body: { platformSlug: "openai", model: "other-model" },
    });
    expect(regenerated.status).toBe(200);
    expect(lastModelAsked()).toBe("fake-model");

    const once = await user.call(chatsApi.aiChat, {
      body: { platformSlug: "openai", model: "other-model", messages: [{ role: "user", content: "hi" }] },
    });
    expect(once.status).toBe(200);
    expect(lastModelAsked()).toBe("fake-model");

    // A chat made earlier on another model answers with the default model too.
    const older = await t.database.db.execute(sql`insert into chats (user_id, title, ai_platform, model)
      select user_id, 'Old', 'openai', 'other-model' from chats where id = ${chatId} returning id`);
    const olderId = Number(older.rows[0]?.id);
    await reply(user, olderId, { content: "and now" });
    expect(lastModelAsked()).toBe("fake-model");
  });

  it("off, with a default model the platform no longer offers: falls back to the platform's own default", async () => {
    await pointPlatformAt(admin, "openai", fake, {
      settings: { models: ["other-model"], defaultModel: "other-model", freeModels: ["other-model"] },
    });
    const chat = await newChat(user, { aiPlatform: "openai", model: "fake-model" });
    await reply(user, chat.id, { content: "fallback please" });
    expect(lastModelAsked()).toBe("other-model");
    expect((await save({ enableModelSelection: true })).status).toBe(200);
  });

  it("off, with no platform usable: the reply says so (503), it never answers from another model", async () => {
    const member = await registerAndSignIn(t.app);
    await pointPlatformAt(admin, "openai", fake, { settings: MODELS, status: "inactive" });
    expect((await save({ enableModelSelection: false })).status).toBe(200);
    const chat = await newChat(member.client);
    const res = await reply(member.client, chat.id, { content: "anyone?", platformSlug: "openai", model: "fake-model" });
    expect(res.status).toBe(503);
    expect(res.error.message).toContain("No AI platform is set up yet");
    await save({ enableModelSelection: true });
  });
});
