import { and, desc, eq, sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, passwordResetTokens, userActivityLogs, users } from "../../src/server/db/schema/index.js";
import { FORGOT_PASSWORD_MIN_MS } from "../../src/server/modules/password-reset/password-reset-service.js";
import { adminUsersApi } from "../../src/shared/contracts/admin-users.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import {
  FORGOT_PASSWORD_SENT,
  PASSWORD_RESET_DONE,
  passwordResetApi,
  RESET_LINK_INVALID,
} from "../../src/shared/contracts/password-reset.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
let admin: CookieClient;
let ipCounter = 0;
/** A fresh client address per test, so the per-IP allowance of one test does not leak into another. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/**
 * The reset calls from a client address of their own (the per-IP allowances are under test, and the contract's call
 * has no remote address to give): the request the contract builds, its body as given (malformed ones among them).
 */
function sendFrom(ip: string, request: InjectOptions) {
  return t.app.inject({ ...request, remoteAddress: ip });
}
function forgotRaw(payload: unknown, ip = freshIp(), headers: Record<string, string> = {}) {
  return sendFrom(ip, requestFor(passwordResetApi.forgot, { body: { email: "" } }, { rawBody: payload, headers }));
}
function forgot(email: unknown, ip = freshIp(), headers: Record<string, string> = {}) {
  return forgotRaw({ email }, ip, headers);
}

function reset(body: Record<string, unknown>, ip = freshIp(), headers: Record<string, string> = {}) {
  return sendFrom(
    ip,
    requestFor(passwordResetApi.reset, { body: { token: "", password: "", confirmPassword: "" } }, { rawBody: body, headers }),
  );
}

async function resetMails(to: string) {
  return t.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.templateSlug, "password-reset")))
    .orderBy(desc(emailOutbox.id));
}

/** The token of the newest reset link sent to `to`, read from the email's text part. */
async function tokenFrom(to: string): Promise<{ token: string; link: string }> {
  const [mail] = await resetMails(to);
  const match = mail?.textBody.match(/(\S+\/reset-password\?token=([A-Za-z0-9_-]+))/);
  if (!match?.[1] || !match[2]) throw new Error(`no reset link in the email to ${to}`);
  return { link: match[1], token: match[2] };
}

async function signIn(username: string, password: string) {
  const client = new CookieClient(t.app);
  const res = await client.call(authApi.login, { body: { username, password } });
  return { client, res };
}

const NEW_PASSWORD = "N3w!password";

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await registerAndSignIn(t.app)).client;
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/forgot-password", () => {
  it("answers the same status and body for a known, an unknown and a disabled email", async () => {
    const known = await registerAndSignIn(t.app);
    const disabled = await registerAndSignIn(t.app);
    expect((await admin.call(adminUsersApi.update, { params: { id: disabled.user.id }, body: { status: "inactive" } })).status).toBe(200);

    const answers = await Promise.all([forgot(known.body.email), forgot("nobody-here@example.com"), forgot(disabled.body.email)]);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_SENT });
    }
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(await resetMails(known.body.email)).toHaveLength(1);
    expect(await resetMails(disabled.body.email)).toHaveLength(0);
    expect(await resetMails("nobody-here@example.com")).toHaveLength(0);
  });

  it("takes the same time floor whether or not the account exists", async () => {
    const known = await registerAndSignIn(t.app);
    const timed = async (email: string) => {
      const started = performance.now();
      expect((await forgot(email)).statusCode).toBe(200);
      return performance.now() - started;
    };
    expect(await timed(known.body.email)).toBeGreaterThanOrEqual(FORGOT_PASSWORD_MIN_MS - 5);
    expect(await timed("unknown-timing@example.com")).toBeGreaterThanOrEqual(FORGOT_PASSWORD_MIN_MS - 5);
  });

  it("queues exactly one reset email with a link on the configured origin, whatever the Host header says", async () => {
    const { body, user } = await registerAndSignIn(t.app, { name: "Ada Reset" });
    const res = await forgot(body.email.toUpperCase(), freshIp(), {
      host: "evil.example",
      origin: "http://evil.example",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    });
    expect(res.statusCode).toBe(200);
    const mails = await resetMails(body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.status).not.toBe("failed");
    expect(mails[0]?.textBody).toContain("Ada Reset");
    const { link, token } = await tokenFrom(body.email);
    expect(link).toBe(`http://localhost:3000/reset-password?token=${token}`);
    expect(mails[0]?.htmlBody).not.toContain("evil.example");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const rows = await t.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toContain(token);
    expect(rows[0]?.tokenHash).toMatch(/^[a-f0-9]{64}$/);
  });

  it("refuses a malformed email with the registration message, and never a 5xx for odd bodies", async () => {
    const bad = await forgot("not-an-email");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Please enter a valid email address");
    for (const payload of [{}, { email: 12 }, { email: null }, { email: ["a@b.co"] }, { email: "x".repeat(10_000) }, [], "plain"]) {
      const res = await forgotRaw(payload);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it("sends at most 5 emails per account per hour, still answering the same", async () => {
    const { body } = await registerAndSignIn(t.app);
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await forgot(body.email));
    for (const res of answers) expect(res.json()).toEqual({ message: FORGOT_PASSWORD_SENT });
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect(await resetMails(body.email)).toHaveLength(5);
  });

  it("refuses a 21st request from one address within the hour with a 429", async () => {
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forgot(`flood${i}@example.com`, ip)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const over = await forgot("flood-last@example.com", ip);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/Too many password reset requests/);
    // Another address is not affected.
    expect((await forgot("flood-last@example.com")).statusCode).toBe(200);
  });

  it("invalidates the earlier link when a new one is asked for", async () => {
    const { body } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const first = await tokenFrom(body.email);
    await forgot(body.email);
    const second = await tokenFrom(body.email);
    expect(second.token).not.toBe(first.token);
    const old = await reset({ token: first.token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe(RESET_LINK_INVALID);
    expect((await reset({ token: second.token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });
});

describe("POST /api/reset-password", () => {
  it("sets the new password, ends every session, logs password_reset and queues password-changed", async () => {
    const { client, body, user } = await registerAndSignIn(t.app);
    const second = await signIn(body.username, body.password);
    expect(second.res.status).toBe(200);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);

    const res = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, "10.9.9.9", {
      "user-agent": "reset-agent/1.0",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PASSWORD_RESET_DONE });

    expect((await client.call(userApi.me, {})).status).toBe(401);
    expect((await second.client.call(userApi.me, {})).status).toBe(401);
    expect((await signIn(body.username, body.password)).res.status).toBe(401);
    expect((await signIn(body.username, NEW_PASSWORD)).res.status).toBe(200);

    const [logged] = await t.database.db
      .select()
      .from(userActivityLogs)
      .where(and(eq(userActivityLogs.userId, user.id), eq(userActivityLogs.action, "password_reset")));
    expect(logged).toMatchObject({ ipAddress: "10.9.9.9", userAgent: "reset-agent/1.0" });
    const changed = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, body.email), eq(emailOutbox.templateSlug, "password-changed")));
    expect(changed).toHaveLength(1);

    // Single use.
    const again = await reset({ token, password: "An0ther!pass", confirmPassword: "An0ther!pass" });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(RESET_LINK_INVALID);
  });

  it("lets only one of two parallel uses of a link succeed", async () => {
    const { body } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);
    const [a, b] = await Promise.all([
      reset({ token, password: "Par4llel!one", confirmPassword: "Par4llel!one" }),
      reset({ token, password: "Par4llel!two", confirmPassword: "Par4llel!two" }),
    ]);
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 400]);
    const winner = a?.statusCode === 200 ? "Par4llel!one" : "Par4llel!two";
    expect((await signIn(body.username, winner)).res.status).toBe(200);
  });

  it("refuses a link older than an hour", async () => {
    const { body, user } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);
    const [row] = await t.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    // Issued for one hour.
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(5_000);
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user.id));
    const res = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_LINK_INVALID);
    expect((await signIn(body.username, body.password)).res.status).toBe(200);
  });

  it("refuses an unknown or malformed token", async () => {
    for (const token of ["A".repeat(43), "short", "", "../../etc", 42, null]) {
      const res = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(RESET_LINK_INVALID);
    }
  });

  it("applies the registration password rules and 'Passwords do not match', keeping the link usable", async () => {
    const { body } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);
    const cases: Array<[string, string, string]> = [
      ["Sh0rt!", "Sh0rt!", "Password must be at least 8 characters"],
      ["nouppercase1!", "nouppercase1!", "Password must contain at least one uppercase letter"],
      ["NOLOWERCASE1!", "NOLOWERCASE1!", "Password must contain at least one lowercase letter"],
      ["NoNumbers!!", "NoNumbers!!", "Password must contain at least one number"],
      ["NoSpecial123", "NoSpecial123", "Password must contain at least one special character"],
    ];
    for (const [password, confirmPassword, message] of cases) {
      const res = await reset({ token, password, confirmPassword });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.password).toBe(message);
    }
    const mismatch = await reset({ token, password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmPassword).toBe("Passwords do not match");
    for (const payload of [{}, { token }, { token, password: 5, confirmPassword: 5 }, { token, password: "x".repeat(5000) }]) {
      expect((await reset(payload)).statusCode).toBe(400);
    }
    expect((await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it("does nothing for an account disabled after the link was sent", async () => {
    const { body, user } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);
    await t.database.db.update(users).set({ status: "inactive" }).where(eq(users.id, user.id));
    const res = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_LINK_INVALID);
  });
});

describe("POST /api/reset-password/check (issue 29: the page says at once what the link is)", () => {
  function check(token: unknown, ip = freshIp()) {
    return sendFrom(ip, requestFor(passwordResetApi.check, { body: { token: "" } }, { rawBody: { token } }));
  }

  it("answers valid, then used once the link was spent; nothing about the account", async () => {
    const { body } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const { token } = await tokenFrom(body.email);
    const fresh = await check(token);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({ state: "valid" });
    // Checking does not spend the link.
    expect((await check(token)).json()).toEqual({ state: "valid" });
    expect((await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await check(token)).json()).toEqual({ state: "used" });
  });

  it("answers expired past the hour, and invalid for a replaced, unknown or disabled account's link", async () => {
    const { body, user } = await registerAndSignIn(t.app);
    await forgot(body.email);
    const first = await tokenFrom(body.email);
    await forgot(body.email);
    const second = await tokenFrom(body.email);
    expect((await check(first.token)).json()).toEqual({ state: "invalid" });
    expect((await check("A".repeat(43))).json()).toEqual({ state: "invalid" });
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.userId, user.id));
    expect((await check(second.token)).json()).toEqual({ state: "expired" });
    await t.database.db.update(users).set({ status: "inactive" }).where(eq(users.id, user.id));
    expect((await check(second.token)).json()).toEqual({ state: "invalid" });
  });

  it("refuses a malformed token with the invalid-link message, and a 61st check from one address with a 429", async () => {
    for (const token of ["short", "", "../../etc", 42, null]) {
      const res = await check(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(RESET_LINK_INVALID);
    }
    const ip = freshIp();
    for (let i = 0; i < 60; i++) expect((await check("B".repeat(43), ip)).statusCode).toBe(200);
    const refused = await check("B".repeat(43), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
  });
});
