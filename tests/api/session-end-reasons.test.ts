// Decision 061 (issue "What a new user and an attacker found", 22): every path that ends a session for a browser that
// still holds it (account disabled, deleted, password changed elsewhere, an admin's password reset) tells that browser
// why, on a refused call (401 `reason`) and on the session probe (`ended`), which a page asks when it notices by itself.
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, endedSessions } from "../../src/server/db/schema/index.js";
import { SIGN_IN_NEEDED } from "../../src/server/lib/access.js";
import { type SessionEndReason, SIGNED_OUT_MESSAGES } from "../../src/shared/signed-out.js";
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
  expect((await second.post("/api/login", { username: first.body.username, password: first.body.password })).statusCode).toBe(200);
  return { ...first, second };
}

/** A browser holding this session cookie and nothing else. */
const holding = (sid: string) => ({ get: (url: string) => t.app.inject({ method: "GET", url, cookies: { sid } }) });

/** What the browser is told: the refused call's body and the session probe's answer. */
async function told(client: Pick<CookieClient, "get">) {
  const refused = await client.get("/api/user");
  expect(refused.statusCode).toBe(401);
  const probe = await client.get("/api/session");
  expect(probe.statusCode).toBe(200);
  return { refused: refused.json(), probe: probe.json() };
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
    expect((await admin.patch(`/api/admin/users/${user.id}`, { status: "inactive" })).statusCode).toBe(200);
    expect(await told(second)).toEqual(endedFor("account_disabled"));
    // The probe first (the page noticing by itself), then a call: both say it.
    const probe = await client.get("/api/session");
    expect(probe.json()).toEqual({ user: null, ended: "account_disabled" });
    expect((await client.get("/api/user")).json()).toEqual(endedFor("account_disabled").refused);
    expect((await admin.patch(`/api/admin/users/${user.id}`, { status: "active" })).statusCode).toBe(200);
    expect(await told(client)).toEqual(NOBODY);
  });

  it("an account deleted by an admin", async () => {
    const { client, second, user } = await twoBrowsers();
    expect((await admin.delete(`/api/admin/users/${user.id}`)).statusCode).toBe(204);
    expect(await told(client)).toEqual(endedFor("account_deleted"));
    expect(await told(second)).toEqual(endedFor("account_deleted"));
  });

  it("a password changed on another device: the other browser is told, the one that changed it stays signed in", async () => {
    const { client, second, body } = await twoBrowsers();
    const changed = await client.patch("/api/user/password", {
      currentPassword: body.password,
      newPassword: `${body.password}x`,
      confirmPassword: `${body.password}x`,
    });
    expect(changed.statusCode).toBe(200);
    expect(await told(second)).toEqual(endedFor("password_changed"));
    expect((await client.get("/api/user")).statusCode).toBe(200);
    expect((await client.get("/api/session")).json().ended).toBeUndefined();
  });

  it("a password reset through the emailed link", async () => {
    const { client, body } = await twoBrowsers();
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/forgot-password",
      payload: { email: body.email },
      remoteAddress: `10.9.0.${++ip}`,
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, body.email), eq(emailOutbox.templateSlug, "password-reset")))
      .orderBy(desc(emailOutbox.id));
    const token = mail?.textBody.match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset-password",
      payload: { token, password: "N3w!password", confirmPassword: "N3w!password" },
      remoteAddress: `10.9.0.${++ip}`,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await told(client)).toEqual(endedFor("password_changed"));
  });

  it("an admin's password reset signs the user out, saying so; an admin resetting their own keeps their session", async () => {
    const { client, second, user } = await twoBrowsers();
    expect((await admin.patch(`/api/admin/users/${user.id}`, { password: "Ad3min!reset" })).statusCode).toBe(200);
    expect(await told(client)).toEqual(endedFor("signed_out_by_admin"));
    expect(await told(second)).toEqual(endedFor("signed_out_by_admin"));

    const self = (await admin.get("/api/user")).json() as { id: number };
    expect((await admin.patch(`/api/admin/users/${self.id}`, { password: "Ad3min!own1" })).statusCode).toBe(200);
    expect((await admin.get("/api/user")).statusCode).toBe(200);
  });

  it("refused: no cookie, a stranger's cookie, a logout and an untouched account are told nothing", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/session" })).json()).toEqual({ user: null });
    expect(await told(holding("x".repeat(43)))).toEqual(NOBODY);
    const tooLong = await t.app.inject({ method: "GET", url: "/api/session", cookies: { sid: "y".repeat(101) } });
    expect(tooLong.json()).toEqual({ user: null });

    // Signed out in one tab: the same cookie, kept by a copy, is only told to sign in.
    const { client } = await registerAndSignIn(t.app);
    const sid = client.cookie("sid") as string;
    expect((await client.post("/api/logout", {})).statusCode).toBe(200);
    expect(await told(holding(sid))).toEqual(NOBODY);

    // Another account's ending says nothing to this one.
    const bystander = await registerAndSignIn(t.app);
    const { user } = await twoBrowsers();
    expect((await admin.patch(`/api/admin/users/${user.id}`, { status: "inactive" })).statusCode).toBe(200);
    expect((await bystander.client.get("/api/session")).json().user.id).toBe(bystander.user.id);
  });

  it("a reason is kept until its session would have expired, then forgotten", async () => {
    const { client, user } = await twoBrowsers();
    expect((await admin.patch(`/api/admin/users/${user.id}`, { status: "inactive" })).statusCode).toBe(200);
    expect((await client.get("/api/session")).json().ended).toBe("account_disabled");
    await t.database.db
      .update(endedSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(endedSessions.userId, user.id));
    expect(await told(client)).toEqual(NOBODY);
  });
});
