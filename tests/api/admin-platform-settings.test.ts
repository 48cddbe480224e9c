// Platform Settings (docs/product.md, Admin back office): admins read and save the platform-wide settings, the SMTP
// password never leaves the server, the first save creates the one settings row, and every switch is
// enforced by the server (registration closed, chat history off, model selection off).
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrPromoteAdmin } from "../../src/server/modules/auth/create-admin.js";
import {
  DEFAULT_MODEL_UNAVAILABLE,
  REGISTRATION_CLOSED,
  TOOL_CALL_TIMEOUT_INVALID,
  TOOL_MAX_STEPS_INVALID,
} from "../../src/shared/contracts/platform-settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { buildTestApp, CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, newChat, parseEvents, pointPlatformAt, textOf } from "../helpers/chat-setup.js";

const URL = "/api/admin/platform-settings";
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
const save = (body: unknown) => admin.patch(URL, body);
const publicSettings = async () => (await t.app.inject({ method: "GET", url: "/api/platform-settings" })).json();
const lastModelAsked = () => (fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)?.body as { model?: string })?.model;

describe("who may call", () => {
  it("refuses a visitor (401) and a member (403) on both calls", async () => {
    const visitor = new CookieClient(t.app);
    for (const [client, status] of [
      [visitor, 401],
      [user, 403],
    ] as const) {
      expect((await client.get(URL)).statusCode).toBe(status);
      const patched = await client.patch(URL, { platformName: "Hijacked" });
      expect(patched.statusCode).toBe(status);
      expect(patched.json().message).toBeTruthy();
    }
    expect((await publicSettings()).platformName).toBe("Lumora");
  });
});

describe("reading and saving", () => {
  it("answers the product's defaults before anything is saved, with no row written", async () => {
    const res = await admin.get(URL);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
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
    expect(await publicSettings()).toEqual({
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
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await settingsRows()).toHaveLength(1);
    const final = (await admin.get(URL)).json();
    expect(names).toContain(final.platformName);
    expect(final.updatedAt).not.toBeNull();
  });

  it("saves what was sent, trimmed, keeps the rest, and the public read follows", async () => {
    const res = await save({ platformName: "  Acme Academy  " });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ platformName: "Acme Academy", defaultModel: "openai-gpt4", allowRegistration: true });
    expect((await admin.get(URL)).json().platformName).toBe("Acme Academy");
    expect((await publicSettings()).platformName).toBe("Acme Academy");
    // An empty body changes nothing.
    expect((await save({})).json().platformName).toBe("Acme Academy");
  });

  it("saves the chat tools' step bound and call timeout at their limits", async () => {
    expect((await save({ toolMaxSteps: 20, toolCallTimeoutSeconds: 1 })).json()).toMatchObject({
      toolMaxSteps: 20,
      toolCallTimeoutSeconds: 1,
    });
    expect((await save({ toolMaxSteps: 1, toolCallTimeoutSeconds: 300 })).json()).toMatchObject({
      toolMaxSteps: 1,
      toolCallTimeoutSeconds: 300,
    });
    expect((await admin.get(URL)).json()).toMatchObject({ toolMaxSteps: 1, toolCallTimeoutSeconds: 300, platformName: "Acme Academy" });
    expect((await save({ toolMaxSteps: 8, toolCallTimeoutSeconds: 30 })).statusCode).toBe(200);
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
      const res = await save(body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
      expect(res.json().errors?.[field]).toBe(message);
    }
    for (const payload of ["null", "[]", '"text"', "12", "{", '{"platformName":{"$ne":1}}', `{"platformName":"${"a".repeat(200_000)}"}`]) {
      const res = await admin.request({ method: "PATCH", url: URL, payload, headers: { "content-type": "application/json" } });
      expect({ payload: payload.slice(0, 30), status: res.statusCode }).toEqual({ payload: payload.slice(0, 30), status: 400 });
    }
    expect((await admin.get(URL)).json().platformName).toBe("Acme Academy");
  });

  it("takes as default model only a model of a platform that is set up", async () => {
    // Nothing is set up: a new value is refused, the stored one is accepted as it is.
    const refused = await save({ defaultModel: "openai/fake-model" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: DEFAULT_MODEL_UNAVAILABLE, errors: { defaultModel: DEFAULT_MODEL_UNAVAILABLE } });
    expect((await save({ defaultModel: "openai-gpt4", platformName: "Acme Academy" })).statusCode).toBe(200);

    await pointPlatformAt(admin, "openai", fake, { settings: MODELS });
    // Decision 061: the product's default names no platform; once one can answer, the page shows it, the one chats use.
    expect((await admin.get(URL)).json()).toMatchObject({ defaultModel: "openai", defaultModelFollows: true });
    for (const value of ["openai", "openai/other-model", "openai/fake-model"]) {
      const res = await save({ defaultModel: value });
      expect({ value, status: res.statusCode }).toEqual({ value, status: 200 });
      expect(res.json().defaultModel).toBe(value);
    }
    for (const value of ["openai/not-offered", "mistral", "deepseek/x", "no-such-platform"]) {
      const res = await save({ defaultModel: value });
      expect({ value, status: res.statusCode }).toEqual({ value, status: 400 });
      expect(res.json().errors.defaultModel).toBe(DEFAULT_MODEL_UNAVAILABLE);
    }
    expect((await admin.get(URL)).json()).toMatchObject({ defaultModel: "openai/fake-model", defaultModelFollows: false });
  });

  it("a saved default model whose platform is turned off follows the platforms that can answer, and comes back with it", async () => {
    const platforms = (await admin.get("/api/ai-platforms")).json() as { id: number; slug: string }[];
    const openai = platforms.find((p) => p.slug === "openai");
    await pointPlatformAt(admin, "mistral", fake, { settings: MODELS });
    expect((await admin.patch(`/api/admin/ai-platforms/${openai?.id}`, { status: "inactive" })).statusCode).toBe(200);
    expect((await admin.get(URL)).json()).toMatchObject({ defaultModel: "mistral", defaultModelFollows: true });
    // Saving the other settings with what the page shows makes it the admin's choice.
    const saved = await save({ defaultModel: "mistral", platformName: "Acme Academy" });
    expect(saved.json()).toMatchObject({ defaultModel: "mistral", defaultModelFollows: false });
    expect((await save({ defaultModel: "openai/fake-model" })).statusCode).toBe(400);
    expect((await admin.patch(`/api/admin/ai-platforms/${openai?.id}`, { status: "active" })).statusCode).toBe(200);
    expect((await save({ defaultModel: "openai/fake-model" })).statusCode).toBe(200);
    expect((await admin.get(URL)).json()).toMatchObject({ defaultModel: "openai/fake-model", defaultModelFollows: false });
    const mistral = platforms.find((p) => p.slug === "mistral");
    expect((await admin.patch(`/api/admin/ai-platforms/${mistral?.id}`, { status: "inactive" })).statusCode).toBe(200);
  });
});

describe("the SMTP password", () => {
  it("is never sent back, only whether one is stored", async () => {
    const password = "smtp-Pa55word-NEVER-SHOWN";
    const sealed = t.app.ctx.secrets.seal(password);
    await t.database.db.execute(
      sql`update platform_settings set smtp_pass_encrypted = ${sealed}, smtp_host = 'smtp.example.com', smtp_user = 'mailer', smtp_from_email = 'mailer@example.com'`,
    );
    const answers = [
      await admin.get(URL),
      await save({ platformName: "Acme Academy" }),
      await save({}),
      await t.app.inject({ method: "GET", url: "/api/platform-settings" }),
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
    const smuggled = await save({ smtpPass: "", smtpPassEncrypted: "x", smtpPassSet: false });
    expect(smuggled.statusCode).toBe(200);
    expect(smuggled.json()).toMatchObject({ smtpHost: "smtp.example.com", smtpPassSet: true });
    const stored = (await t.database.db.execute(sql`select smtp_pass_encrypted from platform_settings`)).rows[0];
    expect(stored?.smtp_pass_encrypted).toBe(sealed);
    // A new password is stored sealed, never as sent.
    const changed = await save({ smtpPass: "a-new-Pa55word" });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toContain("a-new-Pa55word");
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
    expect((await save({ allowRegistration: false })).json().allowRegistration).toBe(false);
    expect((await publicSettings()).allowRegistration).toBe(false);
    const count = async () => Number((await t.database.db.execute(sql`select count(*)::int as n from users`)).rows[0]?.n);
    const before = await count();
    const body = newAccount();
    const refused = await new CookieClient(t.app).post("/api/register", body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: REGISTRATION_CLOSED });
    expect(refused.headers["set-cookie"]).toBeUndefined();
    expect(await count()).toBe(before);

    // The command line still creates an admin while sign-ups are closed.
    const made = await createOrPromoteAdmin({ db: t.database.db, input: { username: `ops${Date.now()}`, password: "Str0ng!pass" } });
    expect(made.created).toBe(true);
    expect(await count()).toBe(before + 1);

    expect((await save({ allowRegistration: true })).statusCode).toBe(200);
    expect((await new CookieClient(t.app).post("/api/register", body)).statusCode).toBe(201);
  });
});

describe("Chat history", () => {
  it("off: every new chat is temporary (not listed), whatever the user's Save Chat History says; on: kept again", async () => {
    expect((await user.get("/api/user/settings")).json().saveHistory).toBe(true);
    expect((await save({ enableHistory: false })).json().enableHistory).toBe(false);
    expect((await publicSettings()).enableHistory).toBe(false);
    const temporary = (await user.post("/api/chats", {})).json();
    expect(temporary.temporary).toBe(true);
    const listed = (await user.get("/api/chats")).json() as { id: number }[];
    expect(listed.map((c) => c.id)).not.toContain(temporary.id);

    expect((await save({ enableHistory: true })).statusCode).toBe(200);
    const kept = (await user.post("/api/chats", {})).json();
    expect(kept.temporary).toBe(false);
    // A chat is listed once it has a message (an empty one never is).
    await user.post(`/api/chats/${kept.id}/messages`, { content: "kept" });
    expect(((await user.get("/api/chats")).json() as { id: number }[]).map((c) => c.id)).toContain(kept.id);
  });
});

describe("Model selection", () => {
  it("on: the model the client picks answers", async () => {
    const chat = await newChat(user, { aiPlatform: "openai", model: "other-model" });
    const res = await user.post(`/api/chats/${chat.id}/reply`, { content: "hello there", platformSlug: "openai", model: "other-model" });
    expect(textOf(parseEvents(res.body))).toBe("Echo: hello there");
    expect(lastModelAsked()).toBe("other-model");
  });

  it("off: the default model answers every chat, whatever the client asks for", async () => {
    expect((await save({ defaultModel: "openai/fake-model", enableModelSelection: false })).statusCode).toBe(200);
    expect((await publicSettings()).enableModelSelection).toBe(false);

    const created = await user.post("/api/chats", { aiPlatform: "openai", model: "other-model" });
    expect(created.json()).toMatchObject({ aiPlatform: "openai", model: "fake-model" });
    const chatId = created.json().id as number;

    // A change of model is ignored; a rename still works.
    const patched = await user.patch(`/api/chats/${chatId}`, { aiPlatform: "openai", model: "other-model" });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().model).toBe("fake-model");
    expect((await user.patch(`/api/chats/${chatId}`, { title: "Renamed", model: "other-model" })).json()).toMatchObject({
      title: "Renamed",
      model: "fake-model",
    });

    const reply = await user.post(`/api/chats/${chatId}/reply`, { content: "which model", platformSlug: "openai", model: "other-model" });
    const done = parseEvents(reply.body).at(-1);
    expect(done?.type === "done" && done.assistantMessage.model).toBe("fake-model");
    expect(lastModelAsked()).toBe("fake-model");

    expect((await user.post(`/api/chats/${chatId}/regenerate`, { platformSlug: "openai", model: "other-model" })).statusCode).toBe(200);
    expect(lastModelAsked()).toBe("fake-model");

    const once = await user.post("/api/ai/chat", {
      platformSlug: "openai",
      model: "other-model",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(once.statusCode).toBe(200);
    expect(lastModelAsked()).toBe("fake-model");

    // A chat made earlier on another model answers with the default model too.
    const older = await t.database.db.execute(sql`insert into chats (user_id, title, ai_platform, model)
      select user_id, 'Old', 'openai', 'other-model' from chats where id = ${chatId} returning id`);
    const olderId = Number(older.rows[0]?.id);
    await user.post(`/api/chats/${olderId}/reply`, { content: "and now" });
    expect(lastModelAsked()).toBe("fake-model");
  });

  it("off, with a default model the platform no longer offers: falls back to the platform's own default", async () => {
    await pointPlatformAt(admin, "openai", fake, {
      settings: { models: ["other-model"], defaultModel: "other-model", freeModels: ["other-model"] },
    });
    const chat = await newChat(user, { aiPlatform: "openai", model: "fake-model" });
    await user.post(`/api/chats/${chat.id}/reply`, { content: "fallback please" });
    expect(lastModelAsked()).toBe("other-model");
    expect((await save({ enableModelSelection: true })).statusCode).toBe(200);
  });

  it("off, with no platform usable: the reply says so (503), it never answers from another model", async () => {
    const member = await registerAndSignIn(t.app);
    await pointPlatformAt(admin, "openai", fake, { settings: MODELS, status: "inactive" });
    expect((await save({ enableModelSelection: false })).statusCode).toBe(200);
    const chat = await newChat(member.client);
    const res = await member.client.post(`/api/chats/${chat.id}/reply`, {
      content: "anyone?",
      platformSlug: "openai",
      model: "fake-model",
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain("No AI platform is set up yet");
    await save({ enableModelSelection: true });
  });
});
