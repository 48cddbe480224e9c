import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, emailOutbox } from "../../src/server/db/schema/index.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { aiPlatformsApi } from "../../src/shared/contracts/ai-platforms.js";
import { adminTokensApi, TOKEN_MESSAGES, TOKENS_PER_USER_MAX, tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi } from "../../src/shared/contracts/courses.js";
import { fillPath, TOKEN_SCOPES } from "../../src/shared/contracts/endpoint.js";
import { passwordResetApi } from "../../src/shared/contracts/password-reset.js";
import { platformSettingsApi } from "../../src/shared/contracts/platform-settings.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type CallInput, type CallOptions, callApp, requestFor } from "../helpers/api-call.js";
import { buildTestApp, type CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";
import { contractEndpoints } from "../helpers/contract-endpoints.js";

// Issue 35: personal API tokens. Made and listed by their owner (shown once, kept hashed), they call as their user the
// endpoints whose contract names one of their scopes, never an admin route; cookies never ride along; a revoke, an
// expiry, a disabled account or a plan turned off stops them at once.

let t: TestApp;
let admin: Awaited<ReturnType<typeof registerAndSignIn>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await registerAndSignIn(t.app);
  expect(admin.user.role).toBe("admin");
});
afterAll(async () => {
  await t.close();
});

type Scopes = CallInput<typeof tokensApi.create>["body"]["scopes"];

async function makeToken(client: CookieClient, scopes: Scopes, name = "script") {
  const response = await client.call(tokensApi.create, { body: { name, expiresInDays: 30, scopes } });
  expect(response.status, response.response.body).toBe(201);
  return response.data;
}
const newToken = (client: CookieClient, name = "x", options?: CallOptions) =>
  client.call(tokensApi.create, { body: { name, expiresInDays: 5, scopes: ["chat"] } }, options);
const tokensOf = (client: CookieClient) => client.ok(tokensApi.list, {});

/** Options that call with `token` (and any other headers). */
const asBearer = (token: string, headers: Record<string, string> = {}): CallOptions => ({
  headers: { authorization: `Bearer ${token}`, ...headers },
});
/** GET /api/chats with the token: its status. */
const chatsWith = async (token: string) => (await callApp(t.app, chatsApi.list, {}, asBearer(token))).status;

describe("making, listing and revoking tokens", () => {
  it("shows a token once, keeps only its hash, lists it without it, and revokes it", async () => {
    const { client } = await registerAndSignIn(t.app);
    const made = await makeToken(client, ["chat", "models", "chat"]);
    expect(made.token).toMatch(/^lum_[A-Za-z0-9_-]{43}$/);
    expect(made.scopes).toEqual(["chat", "models"]);
    expect(made.hint).toBe(made.token.slice(-4));
    const [stored] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, made.id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(made.token);

    // The list as sent (the contract's parse would drop a `token` field).
    const listed: Record<string, unknown>[] = (await client.call(tokensApi.list, {})).response.json();
    expect(listed.map((token) => token.id)).toEqual([made.id]);
    expect(JSON.stringify(listed)).not.toContain(made.token);
    expect(listed[0]).not.toHaveProperty("token");

    expect((await client.call(tokensApi.revoke, { params: { id: made.id } })).status).toBe(204);
    expect(await tokensOf(client)).toEqual([]);
    expect((await client.call(tokensApi.revoke, { params: { id: made.id } })).status).toBe(404);
  });

  it("refuses bad bodies with the field's words, a visitor, and a 21st live token", async () => {
    const { client } = await registerAndSignIn(t.app);
    const bad = await client.call(tokensApi.create, { body: { name: "", expiresInDays: 0, scopes: [] } });
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toMatchObject({ expiresInDays: "A token lives at least 1 day", scopes: TOKEN_MESSAGES.scopesRequired });
    expect((await client.call(tokensApi.create, { body: { name: "x", expiresInDays: 366, scopes: ["chat"] } })).status).toBe(400);
    expect((await newToken(client, "x", { rawBody: { name: "x", expiresInDays: 5, scopes: ["admin"] } })).status).toBe(400);
    expect((await callApp(t.app, tokensApi.create, { body: { name: "x", expiresInDays: 5, scopes: ["chat"] } })).status).toBe(401);

    // Five more than the limit at once: the user's row lock lets exactly the limit through.
    const raced = await Promise.all(Array.from({ length: TOKENS_PER_USER_MAX + 5 }, (_, i) => newToken(client, `t${i}`)));
    expect(raced.filter((r) => r.status === 201)).toHaveLength(TOKENS_PER_USER_MAX);
    const refused = raced.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.error.message])).toEqual(Array(5).fill([409, TOKEN_MESSAGES.tooMany]));
    expect(await tokensOf(client)).toHaveLength(TOKENS_PER_USER_MAX);
  });

  it("another user's token is a 404 to revoke and absent from their list; admins list and revoke any", async () => {
    const owner = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const made = await makeToken(owner.client, ["chat"]);
    expect((await other.client.call(tokensApi.revoke, { params: { id: made.id } })).status).toBe(404);
    expect(await tokensOf(other.client)).toEqual([]);
    expect((await other.client.call(adminTokensApi.list, {})).status).toBe(403);

    const all = await admin.client.call(adminTokensApi.list, {});
    expect(all.data.find((token) => token.id === made.id)?.username).toBe(owner.user.username);
    expect(all.response.body).not.toContain(made.token);
    expect((await admin.client.call(adminTokensApi.revoke, { params: { id: made.id } })).status).toBe(204);
    expect(await chatsWith(made.token)).toBe(401);
  });
});

describe("calling with a token", () => {
  it("acts as its user on its scopes' endpoints, with no cookie and no same-origin header", async () => {
    const owner = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const chat = await owner.client.ok(chatsApi.create, { body: { title: "Mine" } });
    const theirChat = await other.client.ok(chatsApi.create, { body: { title: "Theirs" } });
    const { token } = await makeToken(owner.client, ["chat"]);
    const chatWith = (id: number, headers: Record<string, string> = {}) =>
      callApp(t.app, chatsApi.get, { params: { id } }, asBearer(token, headers));

    expect((await chatWith(chat.id)).data.title).toBe("Mine");
    expect((await chatWith(theirChat.id)).status).toBe(404);
    // A cross-site-looking write is fine: a bearer request carries no cookie to forge.
    const made = await callApp(
      t.app,
      chatsApi.create,
      { body: { title: "From a script" } },
      asBearer(token, { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" }),
    );
    expect(made.status).toBe(201);
    expect((await owner.client.ok(chatsApi.get, { params: { id: made.data.id } })).title).toBe("From a script");
    // Another user's cookie beside the token changes nothing: the token's user is who acts.
    const cookie = { cookie: other.client.sessionCookie ?? "" };
    expect((await chatWith(chat.id, cookie)).status).toBe(200);
    expect((await chatWith(theirChat.id, cookie)).status).toBe(404);
  });

  it("refuses a scope the token lacks, an endpoint no token may call, and a bad token", async () => {
    const { client } = await registerAndSignIn(t.app);
    const { token } = await makeToken(client, ["courses:read"]);
    expect((await callApp(t.app, coursesApi.list, {}, asBearer(token))).status).toBe(200);
    const noChat = await callApp(t.app, chatsApi.list, {}, asBearer(token));
    expect(noChat.status).toBe(403);
    expect(noChat.error.message).toBe(TOKEN_MESSAGES.missingScope("chat"));
    const write = await callApp(t.app, coursesApi.create, { body: { title: "Nope" } }, asBearer(token));
    expect(write.status).toBe(403);
    expect(write.error.message).toBe(TOKEN_MESSAGES.notForThis);
    // A token cannot make tokens, read the session, or change the account (each sent an empty body, as before).
    const refusedCalls: [string, { status: number }][] = [
      [
        "create a token",
        await callApp(
          t.app,
          tokensApi.create,
          { body: { name: "x", expiresInDays: 5, scopes: ["chat"] } },
          { ...asBearer(token), rawBody: {} },
        ),
      ],
      ["session", await callApp(t.app, userApi.session, {}, { ...asBearer(token), rawBody: {} })],
      [
        "password",
        await callApp(
          t.app,
          userApi.changePassword,
          { body: { currentPassword: "x", newPassword: "x", confirmPassword: "x" } },
          { ...asBearer(token), rawBody: {} },
        ),
      ],
    ];
    for (const [name, answer] of refusedCalls) expect(answer.status, name).toBe(403);
    for (const junk of ["lum_nothing", "x".repeat(500), `${token}x`, ""]) {
      const answer = await callApp(t.app, coursesApi.list, {}, asBearer(junk));
      expect(answer.status, junk.slice(0, 20)).toBe(401);
      expect(answer.error.message).toBe(TOKEN_MESSAGES.notValid);
    }
  });

  it("stops at once when revoked, expired, its user disabled, or its plan turned off", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    const revoked = await makeToken(client, ["chat"]);
    expect(await chatsWith(revoked.token)).toBe(200);
    await client.call(tokensApi.revoke, { params: { id: revoked.id } });
    expect(await chatsWith(revoked.token)).toBe(401);

    const expired = await makeToken(client, ["chat"]);
    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    expect(await chatsWith(expired.token)).toBe(401);

    const planned = await makeToken(client, ["chat"]);
    // An admin turns tokens off for the free plan (Platform Settings): the token stops, and no new one is made.
    const off = await admin.client.call(platformSettingsApi.update, { body: { apiTokenPlans: ["earlyAccess"] } });
    expect(off.status, off.response.body).toBe(200);
    expect(off.data.apiTokenPlans).toEqual(["earlyAccess"]);
    try {
      expect(await chatsWith(planned.token)).toBe(401);
      const refused = await newToken(client);
      expect(refused.status).toBe(403);
      expect(refused.error.message).toBe(TOKEN_MESSAGES.planOff);
      // Admins keep theirs whatever the plans say.
      expect((await newToken(admin.client, "admin")).status).toBe(201);
    } finally {
      const on = await admin.client.call(platformSettingsApi.update, { body: { apiTokenPlans: ["free", "earlyAccess"] } });
      expect(on.status).toBe(200);
    }
    expect(await chatsWith(planned.token)).toBe(200);

    const disabled = await admin.client.call(adminUsersApi.update, { params: { id: user.id }, body: { status: "inactive" } });
    expect(disabled.status).toBe(200);
    expect(await chatsWith(planned.token)).toBe(401);
  });

  it("notes when a token was last used", async () => {
    const { client } = await registerAndSignIn(t.app);
    const made = await makeToken(client, ["models"]);
    expect((await tokensOf(client))[0]?.lastUsedAt).toBeNull();
    expect((await callApp(t.app, aiPlatformsApi.forChat, {}, asBearer(made.token))).status).toBe(200);
    expect((await tokensOf(client))[0]?.lastUsedAt).not.toBeNull();
  });
});

describe("the token matrix", () => {
  it("an admin's token with every scope never reaches an admin route, nor any endpoint without its scope", async () => {
    const { token } = await makeToken(admin.client, [...TOKEN_SCOPES]);
    const endpoints = await contractEndpoints();
    const opened: string[] = [];
    for (const endpoint of endpoints) {
      const url = fillPath(endpoint.path, Object.fromEntries([...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((m) => [m[1], "1"])));
      const answer = await t.app.inject({ method: endpoint.method, url, headers: { authorization: `Bearer ${token}` }, payload: {} });
      const name = `${endpoint.method} ${endpoint.path}`;
      if (!endpoint.tokenScope) {
        expect(answer.statusCode, name).toBe(403);
        expect(answer.json().message, name).toBe(TOKEN_MESSAGES.notForThis);
      } else {
        expect(endpoint.access, name).not.toBe("admin");
        expect(answer.statusCode, name).not.toBe(401);
        opened.push(name);
      }
    }
    expect(opened).toContain("GET /api/chats");
    expect(opened).toContain("GET /api/courses/:id");
    expect(opened.every((name) => !name.includes("/api/admin/"))).toBe(true);
  });
});

// Decision 056: a password reset (by its link, or an admin setting the password) ends every token of the account; a
// change ends them too unless the person keeps them on purpose (`revokeTokens: false`, the form's checkbox unticked).
describe("a password change or reset and the tokens", () => {
  const NEW = "N3w!password";
  const changePassword = (client: CookieClient, current: string, extra: { revokeTokens?: boolean } = {}, options?: CallOptions) =>
    client.call(userApi.changePassword, { body: { currentPassword: current, newPassword: NEW, confirmPassword: NEW, ...extra } }, options);
  const works = chatsWith;

  it("a change ends the account's tokens by default, and only its own", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const [mine, alsoMine, theirs] = [
      await makeToken(client, ["chat"]),
      await makeToken(client, ["models"]),
      await makeToken(other.client, ["chat"]),
    ];
    const changed = await changePassword(client, body.password);
    expect(changed.status, changed.response.body).toBe(200);
    expect(await works(mine.token)).toBe(401);
    expect(await works(alsoMine.token)).toBe(401);
    expect(await tokensOf(client)).toEqual([]);
    expect(await works(theirs.token)).toBe(200);
  });

  it("a change keeps them when asked to, and refuses a value that is not true or false", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const kept = await makeToken(client, ["chat"]);
    const rawBody = { currentPassword: body.password, newPassword: NEW, confirmPassword: NEW, revokeTokens: "no" };
    const bad = await changePassword(client, body.password, {}, { rawBody });
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toMatchObject({ revokeTokens: "revokeTokens must be true or false" });
    expect(await works(kept.token)).toBe(200);
    // A wrong current password changes nothing, tokens included.
    expect((await changePassword(client, "Wr0ng!password")).status).toBe(400);
    expect(await works(kept.token)).toBe(200);
    const changed = await changePassword(client, body.password, { revokeTokens: false });
    expect(changed.status, changed.response.body).toBe(200);
    expect(await works(kept.token)).toBe(200);
    expect(await tokensOf(client)).toHaveLength(1);
  });

  it("a reset by its link ends every token, and so does an admin setting the password", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const token = await makeToken(client, ["chat"]);
    // From an address of their own (remoteAddress, which the typed client does not set): the contract's request, sent so.
    const forgot = await t.app.inject({
      ...requestFor(passwordResetApi.forgot, { body: { email: body.email } }),
      remoteAddress: "10.7.0.1",
    });
    expect(forgot.statusCode).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, body.email), eq(emailOutbox.templateSlug, "password-reset")))
      .orderBy(desc(emailOutbox.id));
    const link = mail?.textBody.match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (!link) throw new Error("no reset link");
    const reset = await t.app.inject({
      ...requestFor(passwordResetApi.reset, { body: { token: link, password: NEW, confirmPassword: NEW } }),
      remoteAddress: "10.7.0.1",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await works(token.token)).toBe(401);

    const second = await registerAndSignIn(t.app);
    const adminSet = await makeToken(second.client, ["chat"]);
    const untouched = await makeToken(second.client, ["models"]);
    // An admin's other change (the name) keeps the tokens; setting the password ends them.
    const params = { id: second.user.id };
    expect((await admin.client.call(adminUsersApi.update, { params, body: { name: "Renamed" } })).status).toBe(200);
    expect(await works(adminSet.token)).toBe(200);
    const set = await admin.client.call(adminUsersApi.update, { params, body: { password: NEW } });
    expect(set.status, set.response.body).toBe(200);
    expect(await works(adminSet.token)).toBe(401);
    expect((await callApp(t.app, aiPlatformsApi.forChat, {}, asBearer(untouched.token))).status).toBe(401);
  });
});
