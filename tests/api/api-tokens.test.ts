import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, emailOutbox } from "../../src/server/db/schema/index.js";
import { TOKEN_MESSAGES, TOKENS_PER_USER_MAX } from "../../src/shared/contracts/api-tokens.js";
import { fillPath, TOKEN_SCOPES } from "../../src/shared/contracts/endpoint.js";
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

async function makeToken(client: CookieClient, scopes: string[], name = "script") {
  const response = await client.post("/api/tokens", { name, expiresInDays: 30, scopes });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; token: string; hint: string; scopes: string[] };
}

const bearer = (
  token: string,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

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

    const listed = (await client.get("/api/tokens")).json() as Record<string, unknown>[];
    expect(listed.map((token) => token.id)).toEqual([made.id]);
    expect(JSON.stringify(listed)).not.toContain(made.token);
    expect(listed[0]).not.toHaveProperty("token");

    expect((await client.delete(`/api/tokens/${made.id}`)).statusCode).toBe(204);
    expect((await client.get("/api/tokens")).json()).toEqual([]);
    expect((await client.delete(`/api/tokens/${made.id}`)).statusCode).toBe(404);
  });

  it("refuses bad bodies with the field's words, a visitor, and a 21st live token", async () => {
    const { client } = await registerAndSignIn(t.app);
    const bad = await client.post("/api/tokens", { name: "", expiresInDays: 0, scopes: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ expiresInDays: "A token lives at least 1 day", scopes: TOKEN_MESSAGES.scopesRequired });
    expect((await client.post("/api/tokens", { name: "x", expiresInDays: 366, scopes: ["chat"] })).statusCode).toBe(400);
    expect((await client.post("/api/tokens", { name: "x", expiresInDays: 5, scopes: ["admin"] })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/tokens", payload: { name: "x", expiresInDays: 5, scopes: ["chat"] } })).statusCode,
    ).toBe(401);

    // Five more than the limit at once: the user's row lock lets exactly the limit through.
    const raced = await Promise.all(
      Array.from({ length: TOKENS_PER_USER_MAX + 5 }, (_, i) =>
        client.post("/api/tokens", { name: `t${i}`, expiresInDays: 5, scopes: ["chat"] }),
      ),
    );
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(TOKENS_PER_USER_MAX);
    const refused = raced.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, r.json().message])).toEqual(Array(5).fill([409, TOKEN_MESSAGES.tooMany]));
    expect((await client.get("/api/tokens")).json()).toHaveLength(TOKENS_PER_USER_MAX);
  });

  it("another user's token is a 404 to revoke and absent from their list; admins list and revoke any", async () => {
    const owner = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const made = await makeToken(owner.client, ["chat"]);
    expect((await other.client.delete(`/api/tokens/${made.id}`)).statusCode).toBe(404);
    expect((await other.client.get("/api/tokens")).json()).toEqual([]);
    expect((await other.client.get("/api/admin/tokens")).statusCode).toBe(403);

    const all = (await admin.client.get("/api/admin/tokens")).json() as { id: number; username: string }[];
    expect(all.find((token) => token.id === made.id)?.username).toBe(owner.user.username);
    expect(JSON.stringify(all)).not.toContain(made.token);
    expect((await admin.client.delete(`/api/admin/tokens/${made.id}`)).statusCode).toBe(204);
    expect((await bearer(made.token, "GET", "/api/chats")).statusCode).toBe(401);
  });
});

describe("calling with a token", () => {
  it("acts as its user on its scopes' endpoints, with no cookie and no same-origin header", async () => {
    const owner = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const chat = (await owner.client.post("/api/chats", { title: "Mine" })).json() as { id: number };
    const theirChat = (await other.client.post("/api/chats", { title: "Theirs" })).json() as { id: number };
    const { token } = await makeToken(owner.client, ["chat"]);

    expect((await bearer(token, "GET", `/api/chats/${chat.id}`)).json().title).toBe("Mine");
    expect((await bearer(token, "GET", `/api/chats/${theirChat.id}`)).statusCode).toBe(404);
    // A cross-site-looking write is fine: a bearer request carries no cookie to forge.
    const made = await bearer(
      token,
      "POST",
      "/api/chats",
      { title: "From a script" },
      { origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" },
    );
    expect(made.statusCode).toBe(201);
    expect((await owner.client.get(`/api/chats/${made.json().id}`)).json().title).toBe("From a script");
    // Another user's cookie beside the token changes nothing: the token's user is who acts.
    const cookie = { cookie: other.client.sessionCookie ?? "" };
    expect((await bearer(token, "GET", `/api/chats/${chat.id}`, undefined, cookie)).statusCode).toBe(200);
    expect((await bearer(token, "GET", `/api/chats/${theirChat.id}`, undefined, cookie)).statusCode).toBe(404);
  });

  it("refuses a scope the token lacks, an endpoint no token may call, and a bad token", async () => {
    const { client } = await registerAndSignIn(t.app);
    const { token } = await makeToken(client, ["courses:read"]);
    expect((await bearer(token, "GET", "/api/courses")).statusCode).toBe(200);
    const noChat = await bearer(token, "GET", "/api/chats");
    expect(noChat.statusCode).toBe(403);
    expect(noChat.json().message).toBe(TOKEN_MESSAGES.missingScope("chat"));
    const write = await bearer(token, "POST", "/api/courses", { title: "Nope" });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe(TOKEN_MESSAGES.notForThis);
    // A token cannot make tokens, read the session, or change the account.
    for (const [method, url] of [
      ["POST", "/api/tokens"],
      ["GET", "/api/session"],
      ["PATCH", "/api/user/password"],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload: {} })).statusCode, url).toBe(403);
    }
    for (const junk of ["lum_nothing", "x".repeat(500), `${token}x`, ""]) {
      const answer = await bearer(junk, "GET", "/api/courses");
      expect(answer.statusCode, junk.slice(0, 20)).toBe(401);
      expect(answer.json().message).toBe(TOKEN_MESSAGES.notValid);
    }
  });

  it("stops at once when revoked, expired, its user disabled, or its plan turned off", async () => {
    const { client, user } = await registerAndSignIn(t.app);
    const revoked = await makeToken(client, ["chat"]);
    expect((await bearer(revoked.token, "GET", "/api/chats")).statusCode).toBe(200);
    await client.delete(`/api/tokens/${revoked.id}`);
    expect((await bearer(revoked.token, "GET", "/api/chats")).statusCode).toBe(401);

    const expired = await makeToken(client, ["chat"]);
    await t.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    expect((await bearer(expired.token, "GET", "/api/chats")).statusCode).toBe(401);

    const planned = await makeToken(client, ["chat"]);
    // An admin turns tokens off for the free plan (Platform Settings): the token stops, and no new one is made.
    const off = await admin.client.patch("/api/admin/platform-settings", { apiTokenPlans: ["earlyAccess"] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().apiTokenPlans).toEqual(["earlyAccess"]);
    try {
      expect((await bearer(planned.token, "GET", "/api/chats")).statusCode).toBe(401);
      const refused = await client.post("/api/tokens", { name: "x", expiresInDays: 5, scopes: ["chat"] });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(TOKEN_MESSAGES.planOff);
      // Admins keep theirs whatever the plans say.
      expect((await admin.client.post("/api/tokens", { name: "admin", expiresInDays: 5, scopes: ["chat"] })).statusCode).toBe(201);
    } finally {
      expect((await admin.client.patch("/api/admin/platform-settings", { apiTokenPlans: ["free", "earlyAccess"] })).statusCode).toBe(200);
    }
    expect((await bearer(planned.token, "GET", "/api/chats")).statusCode).toBe(200);

    expect((await admin.client.patch(`/api/admin/users/${user.id}`, { status: "inactive" })).statusCode).toBe(200);
    expect((await bearer(planned.token, "GET", "/api/chats")).statusCode).toBe(401);
  });

  it("notes when a token was last used", async () => {
    const { client } = await registerAndSignIn(t.app);
    const made = await makeToken(client, ["models"]);
    expect((await client.get("/api/tokens")).json()[0].lastUsedAt).toBeNull();
    expect((await bearer(made.token, "GET", "/api/ai/platforms")).statusCode).toBe(200);
    expect((await client.get("/api/tokens")).json()[0].lastUsedAt).not.toBeNull();
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
  const changePassword = (client: CookieClient, current: string, extra: Record<string, unknown> = {}) =>
    client.patch("/api/user/password", { currentPassword: current, newPassword: NEW, confirmPassword: NEW, ...extra });
  const works = async (token: string) => (await bearer(token, "GET", "/api/chats")).statusCode;

  it("a change ends the account's tokens by default, and only its own", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    const [mine, alsoMine, theirs] = [
      await makeToken(client, ["chat"]),
      await makeToken(client, ["models"]),
      await makeToken(other.client, ["chat"]),
    ];
    const changed = await changePassword(client, body.password);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await works(mine.token)).toBe(401);
    expect(await works(alsoMine.token)).toBe(401);
    expect((await client.get("/api/tokens")).json()).toEqual([]);
    expect(await works(theirs.token)).toBe(200);
  });

  it("a change keeps them when asked to, and refuses a value that is not true or false", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const kept = await makeToken(client, ["chat"]);
    const bad = await changePassword(client, body.password, { revokeTokens: "no" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ revokeTokens: "revokeTokens must be true or false" });
    expect(await works(kept.token)).toBe(200);
    // A wrong current password changes nothing, tokens included.
    expect((await changePassword(client, "Wr0ng!password")).statusCode).toBe(400);
    expect(await works(kept.token)).toBe(200);
    const changed = await changePassword(client, body.password, { revokeTokens: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await works(kept.token)).toBe(200);
    expect((await client.get("/api/tokens")).json()).toHaveLength(1);
  });

  it("a reset by its link ends every token, and so does an admin setting the password", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const token = await makeToken(client, ["chat"]);
    const forgot = await t.app.inject({
      method: "POST",
      url: "/api/forgot-password",
      payload: { email: body.email },
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
      method: "POST",
      url: "/api/reset-password",
      payload: { token: link, password: NEW, confirmPassword: NEW },
      remoteAddress: "10.7.0.1",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await works(token.token)).toBe(401);

    const second = await registerAndSignIn(t.app);
    const adminSet = await makeToken(second.client, ["chat"]);
    const untouched = await makeToken(second.client, ["models"]);
    // An admin's other change (the name) keeps the tokens; setting the password ends them.
    expect((await admin.client.patch(`/api/admin/users/${second.user.id}`, { name: "Renamed" })).statusCode).toBe(200);
    expect(await works(adminSet.token)).toBe(200);
    const set = await admin.client.patch(`/api/admin/users/${second.user.id}`, { password: NEW });
    expect(set.statusCode, set.body).toBe(200);
    expect(await works(adminSet.token)).toBe(401);
    expect((await bearer(untouched.token, "GET", "/api/ai/platforms")).statusCode).toBe(401);
  });
});
