// Decision 061 (issue "What a new user and an attacker found", 22): every path that ends a session for a browser that
// still holds it (account disabled, deleted, password changed elsewhere, an admin's password reset) tells that browser
// why, on a refused call (401 `reason`) and on the session probe (`ended`), which a page asks when it notices by itself.
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, endedSessions } from "../../src/server/db/schema/index.js";
import { SIGN_IN_NEEDED } from "../../src/server/lib/access.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { passwordResetApi } from "../../src/shared/contracts/password-reset.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type SessionEndReason, SIGNED_OUT_MESSAGES } from "../../src/shared/signed-out.js";
import { type CallInput, callApp, callEndpoint } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let admin: CookieClient;
let ip = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t?.close();
});

/** A new account signed in on two browsers. */
async function twoBrowsers() {
  const first = await registerAndSignIn(t.app);
  const second = new CookieClient(t.app);
  const login = { username: first.body.username, password: first.body.password };
  expect((await second.call(authApi.login, { body: login })).status).toBe(200);
  return { ...first, second };
}

/** A browser holding this session cookie and nothing else. */
const holding = (sid: string): Pick<CookieClient, "call"> => ({
  call: <E extends EndpointShape>(endpoint: E, input: CallInput<E>) =>
    callApp(t.app, endpoint, input, { headers: { cookie: `sid=${sid}` } }),
});
/** A visitor from an address of its own (the password-reset calls are limited per address). */
const fromNewAddress = <E extends EndpointShape>(endpoint: E, input: CallInput<E>) => {
  const remoteAddress = `10.9.0.${++ip}`;
  return callEndpoint((request) => t.app.inject({ ...request, remoteAddress }), endpoint, input);
};
const setUser = (id: number, body: CallInput<typeof adminUsersApi.update>["body"]) =>
  admin.call(adminUsersApi.update, { params: { id }, body });
/** The session probe's answer as sent (compared whole: the contract's parse would drop a key it does not name). */
const probeOf = async (client: Pick<CookieClient, "call">) => (await client.call(userApi.session, {})).response.json();

/** What the browser is told: the refused call's body and the session probe's answer, both as sent. */
async function told(client: Pick<CookieClient, "call">) {
  const refused = await client.call(userApi.me, {});
  expect(refused.status).toBe(401);
  const probe = await client.call(userApi.session, {});
  expect(probe.status).toBe(200);
  return { refused: refused.response.json(), probe: probe.response.json() };
}

function endedFor(reason: SessionEndReason) {
  return {
    refused: { message: SIGNED_OUT_MESSAGES[reason], reason },
    probe: { user: null, ended: reason },
  };
}

const NOBODY = { refused: { message: SIGN_IN_NEEDED }, probe: { user: null } };

describe("a session ended for its browser says why", () => {
  it("an account disabled by an admin, on the refused call and on the probe; enabled again, old cookies are told nothing", async () => {
    const { client, second, user } = await twoBrowsers();
    expect((await setUser(user.id, { status: "inactive" })).status).toBe(200);
    expect(await told(second)).toEqual(endedFor("account_disabled"));
    // The probe first (the page noticing by itself), then a call: both say it.
    expect(await probeOf(client)).toEqual({ user: null, ended: "account_disabled" });
    expect((await client.call(userApi.me, {})).response.json()).toEqual(endedFor("account_disabled").refused);
    expect((await setUser(user.id, { status: "active" })).status).toBe(200);
    expect(await told(client)).toEqual(NOBODY);
  });

  it("an account deleted by an admin", async () => {
    const { client, second, user } = await twoBrowsers();
    expect((await admin.call(adminUsersApi.remove, { params: { id: user.id } })).status).toBe(204);
    expect(await told(client)).toEqual(endedFor("account_deleted"));
    expect(await told(second)).toEqual(endedFor("account_deleted"));
  });

  it("a password changed on another device: the other browser is told, the one that changed it stays signed in", async () => {
    const { client, second, body } = await twoBrowsers();
    const changed = await client.call(userApi.changePassword, {
      body: { currentPassword: body.password, newPassword: `${body.password}x`, confirmPassword: `${body.password}x` },
    });
    expect(changed.status).toBe(200);
    expect(await told(second)).toEqual(endedFor("password_changed"));
    expect((await client.call(userApi.me, {})).status).toBe(200);
    expect((await probeOf(client)).ended).toBeUndefined();
  });

  it("a password reset through the emailed link", async () => {
    const { client, body } = await twoBrowsers();
    const asked = await fromNewAddress(passwordResetApi.forgot, { body: { email: body.email } });
    expect(asked.status).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, body.email), eq(emailOutbox.templateSlug, "password-reset")))
      .orderBy(desc(emailOutbox.id));
    const token = mail?.textBody.match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const reset = await fromNewAddress(passwordResetApi.reset, {
      body: { token: token ?? "", password: "N3w!password", confirmPassword: "N3w!password" },
    });
    expect(reset.status, reset.response.body).toBe(200);
    expect(await told(client)).toEqual(endedFor("password_changed"));
  });

  it("an admin's password reset signs the user out, saying so; an admin resetting their own keeps their session", async () => {
    const { client, second, user } = await twoBrowsers();
    expect((await setUser(user.id, { password: "Ad3min!reset" })).status).toBe(200);
    expect(await told(client)).toEqual(endedFor("signed_out_by_admin"));
    expect(await told(second)).toEqual(endedFor("signed_out_by_admin"));

    const self = await admin.ok(userApi.me, {});
    expect((await setUser(self.id, { password: "Ad3min!own1" })).status).toBe(200);
    expect((await admin.call(userApi.me, {})).status).toBe(200);
  });

  it("refused: no cookie, a stranger's cookie, a logout and an untouched account are told nothing", async () => {
    expect((await callApp(t.app, userApi.session, {})).response.json()).toEqual({ user: null });
    expect(await told(holding("x".repeat(43)))).toEqual(NOBODY);
    expect(await probeOf(holding("y".repeat(101)))).toEqual({ user: null });

    // Signed out in one tab: the same cookie, kept by a copy, is only told to sign in.
    const { client } = await registerAndSignIn(t.app);
    const sid = client.cookie("sid") ?? "";
    expect((await client.call(authApi.logout, {})).status).toBe(200);
    expect(await told(holding(sid))).toEqual(NOBODY);

    // Another account's ending says nothing to this one.
    const bystander = await registerAndSignIn(t.app);
    const { user } = await twoBrowsers();
    expect((await setUser(user.id, { status: "inactive" })).status).toBe(200);
    expect((await bystander.client.ok(userApi.session, {})).user?.id).toBe(bystander.user.id);
  });

  it("a reason is kept until its session would have expired, then forgotten", async () => {
    const { client, user } = await twoBrowsers();
    expect((await setUser(user.id, { status: "inactive" })).status).toBe(200);
    expect((await client.ok(userApi.session, {})).ended).toBe("account_disabled");
    await t.database.db
      .update(endedSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(endedSessions.userId, user.id));
    expect(await told(client)).toEqual(NOBODY);
  });
});
