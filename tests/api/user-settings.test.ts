import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { settingsApi } from "../../src/shared/contracts/settings.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let admin: CookieClient;
let mistralId: number;
beforeAll(async () => {
  t = await buildTestApp();
  // The first account is the admin: it gives Mistral a key, so "mistral" is a usable default model.
  admin = (await registerAndSignIn(t.app)).client;
  const platforms = await admin.ok(aiPlatformsApi.list, {});
  mistralId = platforms.find((p) => p.slug === "mistral")!.id;
  const saved = await admin.call(aiPlatformsApi.update, {
    params: { id: mistralId },
    body: {
      apiKey: "sk-test-valid-key-123456",
      settings: { models: ["mistral-small", "mistral-large"], defaultModel: "mistral-small", freeModels: ["mistral-small"] },
    },
  });
  expect(saved.status, saved.response.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe("GET/PATCH /api/user/settings", () => {
  it("starts from the product's defaults", async () => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(settingsApi.get, {});
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ defaultModel: "openai", temperature: "0.7", maxTokens: 1024, saveHistory: true, markdownRendering: true });
  });

  it.each([
    [{ defaultModel: "mistral" }, { defaultModel: "mistral" }],
    [{ temperature: "0.3" }, { temperature: "0.3" }],
    [{ temperature: "1" }, { temperature: "1.0" }],
    [{ maxTokens: 4096 }, { maxTokens: 4096 }],
    [{ saveHistory: false }, { saveHistory: false }],
    [{ markdownRendering: false }, { markdownRendering: false }],
  ])("saves exactly one field %o", async (body, expected) => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(settingsApi.update, { body });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject(expected);
    expect(await client.ok(settingsApi.get, {})).toMatchObject(expected);
  });

  it.each([
    [{}, "Send exactly one setting at a time"],
    [{ temperature: "0.5", maxTokens: 512 }, "Send exactly one setting at a time"],
    [{ temperature: "1.5" }, "Temperature must be between 0 and 1"],
    [{ temperature: "-0.1" }, "Temperature must be a number between 0 and 1"],
    [{ temperature: "0.55" }, "Temperature moves in steps of 0.1"],
    [{ maxTokens: 128 }, "Response length must be at least 256"],
    [{ maxTokens: 8192 }, "Response length cannot exceed 4096"],
    [{ maxTokens: 300 }, "Response length moves in steps of 256"],
    [{ saveHistory: "yes" }, null],
    [{ role: "admin" }, null],
  ])("refuses %o", async (body, message) => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(settingsApi.update, { body: {} }, { rawBody: body });
    expect(res.status).toBe(400);
    if (message) expect(res.error.message).toBe(message);
    expect(await client.ok(settingsApi.get, {})).toMatchObject({ temperature: "0.7", maxTokens: 1024, saveHistory: true });
  });

  it("saves only a default model the pickers offer: a usable platform, or a model this plan may pick", async () => {
    const { client } = await registerAndSignIn(t.app);
    for (const defaultModel of ["mistral", "mistral/mistral-small"]) {
      const res = await client.call(settingsApi.update, { body: { defaultModel } });
      expect({ defaultModel, status: res.status }).toEqual({ defaultModel, status: 200 });
    }
    const refusals: [string, string][] = [
      ["deepseek", "That AI platform is not available (not set up, or turned off): choose one of the models offered."],
      ["deepseek/deepseek-chat", "That AI platform is not available (not set up, or turned off): choose one of the models offered."],
      ["mistral/no-such-model", "The model no-such-model is not available on Mistral: choose one of the models offered."],
      // Early Access only: a free user's picker shows it locked.
      ["mistral/mistral-large", "The model mistral-large is not available on Mistral: choose one of the models offered."],
    ];
    for (const [defaultModel, message] of refusals) {
      const res = await client.call(settingsApi.update, { body: { defaultModel } });
      expect({ defaultModel, status: res.status, message: res.error.message }).toEqual({ defaultModel, status: 400, message });
    }
    expect((await client.ok(settingsApi.get, {})).defaultModel).toBe("mistral/mistral-small");
  });

  it("refuses a platform an administrator turned off, and keeps what was saved", async () => {
    const { client } = await registerAndSignIn(t.app);
    expect((await client.call(settingsApi.update, { body: { defaultModel: "mistral" } })).status).toBe(200);
    expect((await admin.call(aiPlatformsApi.update, { params: { id: mistralId }, body: { status: "inactive" } })).status).toBe(200);
    try {
      const res = await client.call(settingsApi.update, { body: { defaultModel: "mistral/mistral-small" } });
      expect(res.status).toBe(400);
      expect((await client.ok(settingsApi.get, {})).defaultModel).toBe("mistral");
    } finally {
      expect((await admin.call(aiPlatformsApi.update, { params: { id: mistralId }, body: { status: "active" } })).status).toBe(200);
    }
  });

  it("needs a signed-in user", async () => {
    expect((await callApp(t.app, settingsApi.get, {})).status).toBe(401);
    expect((await callApp(t.app, settingsApi.update, { body: { saveHistory: false } })).status).toBe(401);
  });

  it("keeps each user's settings to themselves", async () => {
    const a = await registerAndSignIn(t.app);
    const b = await registerAndSignIn(t.app);
    await a.client.ok(settingsApi.update, { body: { maxTokens: 2048 } });
    expect((await b.client.ok(settingsApi.get, {})).maxTokens).toBe(1024);
  });
});

describe("GET /api/session (the web's session probe)", () => {
  it("answers 200 with no user when signed out, where the product's GET /api/user answers 401", async () => {
    const probe = await callApp(t.app, userApi.session, {});
    expect(probe.status).toBe(200);
    expect(probe.response.json()).toEqual({ user: null });
    expect((await callApp(t.app, userApi.me, {})).status).toBe(401);
  });

  it("answers the signed-in user, the same as GET /api/user, and nothing the contract does not name", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    // The raw answers: what the contract does not name would not survive the typed parse.
    const probe = await client.call(userApi.session, {});
    expect(probe.status).toBe(200);
    expect(probe.response.json().user).toEqual((await client.call(userApi.me, {})).response.json());
    expect(probe.response.json().user).toMatchObject({ id: user.id, username: user.username });
    expect(Object.keys(probe.response.json().user)).not.toContain("passwordHash");
    await client.ok(authApi.logout, {});
    expect((await client.call(userApi.session, {})).response.json()).toEqual({ user: null });
  });
});

describe("PATCH /api/user (profile)", () => {
  it("updates name and email; empty email clears it", async () => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(userApi.updateProfile, { body: { name: "New Name", email: "NEW.address@Example.com" } });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ name: "New Name", email: "new.address@example.com" });
    expect(await client.ok(userApi.me, {})).toMatchObject({ name: "New Name" });
    const cleared = await client.ok(userApi.updateProfile, { body: { email: "" } });
    expect(cleared.email).toBeNull();
  });

  it("refuses a bad email with the product's message and a taken one with 409", async () => {
    const a = await registerAndSignIn(t.app);
    const b = await registerAndSignIn(t.app);
    const bad = await a.client.call(userApi.updateProfile, { body: { email: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.email).toBe("Please enter a valid email");
    const taken = await a.client.call(userApi.updateProfile, { body: { email: b.body.email } });
    expect(taken.status).toBe(409);
  });

  it("cannot change role, plan or username through the profile", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    // Fields the profile does not take, sent as they are.
    const res = await client.call(
      userApi.updateProfile,
      { body: { name: "Still User" } },
      { rawBody: { name: "Still User", role: "admin", planType: "earlyAccess", username: "hijack" } },
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ role: user.role, planType: "free", username: user.username });
  });

  it("needs a signed-in user", async () => {
    expect((await callApp(t.app, userApi.updateProfile, { body: { name: "X Y" } })).status).toBe(401);
  });
});

describe("PATCH /api/user/password", () => {
  it("refuses a wrong current password and keeps the old one", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const res = await client.call(userApi.changePassword, {
      body: { currentPassword: "Wrong!pass1", newPassword: "An0ther!pass", confirmPassword: "An0ther!pass" },
    });
    expect(res.status).toBe(400);
    expect(res.error.errors?.currentPassword).toBe("Current password is incorrect");
    const login = await callApp(t.app, authApi.login, { body: { username: body.username, password: body.password } });
    expect(login.status).toBe(200);
  });

  it.each([
    [
      { currentPassword: "", newPassword: "Str0ng!pass", confirmPassword: "Str0ng!pass" },
      "currentPassword",
      "Current password is required",
    ],
    [{ currentPassword: "x", newPassword: "abc", confirmPassword: "abc" }, "newPassword", "Password must be at least 6 characters"],
    // One password rule (decision 030): 6 characters are not enough any more, said in the registration's words.
    [{ currentPassword: "x", newPassword: "abcdef", confirmPassword: "abcdef" }, "newPassword", "Password must be at least 8 characters"],
    [
      { currentPassword: "x", newPassword: "abcdefgh1!", confirmPassword: "abcdefgh1!" },
      "newPassword",
      "Password must contain at least one uppercase letter",
    ],
    [{ currentPassword: "x", newPassword: "Str0ng!pass", confirmPassword: "" }, "confirmPassword", "Please confirm your password"],
    [{ currentPassword: "x", newPassword: "Str0ng!pass", confirmPassword: "Str0ng!pasS" }, "confirmPassword", "Passwords don't match"],
  ])("validates %o", async (payload, field, message) => {
    const { client } = await registerAndSignIn(t.app);
    const res = await client.call(userApi.changePassword, { body: payload });
    expect(res.status).toBe(400);
    expect(res.error.errors?.[field]).toBe(message);
  });

  it("changes the password, keeps this session and signs out the others", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const other = new CookieClient(t.app);
    expect((await other.call(authApi.login, { body: { username: body.username, password: body.password } })).status).toBe(200);
    const res = await client.call(userApi.changePassword, {
      body: { currentPassword: body.password, newPassword: "Brandn3w!pw", confirmPassword: "Brandn3w!pw" },
    });
    expect(res.status).toBe(200);
    expect((await client.call(userApi.me, {})).status).toBe(200);
    expect((await other.call(userApi.me, {})).status).toBe(401);
    const oldLogin = await callApp(t.app, authApi.login, { body: { username: body.username, password: body.password } });
    expect(oldLogin.status).toBe(401);
    const newLogin = await callApp(t.app, authApi.login, { body: { username: body.username, password: "Brandn3w!pw" } });
    expect(newLogin.status).toBe(200);
    const log = await t.database.db.execute(`select count(*)::int as n from user_activity_logs where action = 'password_change'`);
    expect((log.rows[0] as { n: number }).n).toBeGreaterThan(0);
  });
});
