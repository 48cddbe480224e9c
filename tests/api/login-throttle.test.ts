import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox, userActivityLogs } from "../../src/server/db/schema/index.js";
import { createMemoryCounterStore } from "../../src/server/lib/counter-store.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { passwordResetApi } from "../../src/shared/contracts/password-reset.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { type Called, callApp, callEndpoint, type Send } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, newAccount, registerAndSignIn, type TestApp } from "../helpers/build-test-app.js";

/**
 * Throttling that holds (issue 14): every attempt is counted before the password is checked, per account
 * whatever name or email was typed, and a browser that signed in before keeps its own allowance.
 */
let t: TestApp;
let ipCounter = 0;
/** A fresh client address per burst, so the per-address budget (300 a minute) never decides a result here. */
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const LOCKED = /^Too many failed login attempts for this account\. Try again in \d+ minutes?\.$/;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Requests from this client address, through a browser's cookie jar or from no browser at all. */
const from =
  (ip: string, client?: CookieClient): Send =>
  (request) =>
    client ? client.request({ ...request, remoteAddress: ip }) : t.app.inject({ ...request, remoteAddress: ip });

function login(username: string, password: string, ip = freshIp(), client?: CookieClient) {
  return callEndpoint(from(ip, client), authApi.login, { body: { username, password } });
}

async function failedLoginsOf(userId: number): Promise<number> {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(userActivityLogs)
    .where(and(eq(userActivityLogs.userId, userId), eq(userActivityLogs.action, "failed_login")));
  return row?.n ?? 0;
}

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** Five wrong passwords from browsers the account has never seen: the account is then locked for them. */
async function lockForUnknownDevices(username: string) {
  for (let i = 0; i < 5; i++) expect((await login(username, `Wrong!pass${i}`)).status).toBe(401);
}

describe("count, then check", () => {
  it("30 parallel wrong passwords check exactly 5 (401) and refuse the rest unchecked (429)", async () => {
    const { body, user } = await registerAndSignIn(t.app);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(body.username, `Wrong!pass${i}`, ip)));
    expect(statuses(answers)).toEqual({ 401: 5, 429: 25 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.error.message).toMatch(LOCKED);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
    }
    // Each verified password leaves a failed_login row: 5, not 30.
    expect(await failedLoginsOf(user.id)).toBe(5);
    // The right password now waits for the window too (from a browser the account has not seen).
    expect((await login(body.username, body.password)).status).toBe(429);
  });

  it("a right password hidden in a burst signs in only if it is among the 5 checked", async () => {
    const { body } = await registerAndSignIn(t.app);
    const ip = freshIp();
    const wrong = Array.from({ length: 29 }, (_, i) => login(body.username, `Wrong!pass${i}`, ip));
    const answers = await Promise.all([...wrong, login(body.username, body.password, ip)]);
    const counts = statuses(answers);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(5);
    expect(counts[429]).toBeGreaterThanOrEqual(25);
  });

  it("a success clears the failures: 4 wrong, the right one, then 5 more wrong are checked", async () => {
    const { body } = await registerAndSignIn(t.app);
    for (let i = 0; i < 4; i++) expect((await login(body.username, `Wrong!pass${i}`)).status).toBe(401);
    expect((await login(body.username, body.password)).status).toBe(200);
    await lockForUnknownDevices(body.username);
    expect((await login(body.username, `Wrong!pass9`)).status).toBe(429);
  });
});

describe("per account, whatever was typed", () => {
  it("an account locked by its username cannot sign in by its email (any case), and the other way round", async () => {
    const first = await registerAndSignIn(t.app);
    await lockForUnknownDevices(first.body.username.toUpperCase());
    const byEmail = await login(first.body.email.toUpperCase(), first.body.password);
    expect(byEmail.status).toBe(429);
    expect(byEmail.error.message).toMatch(LOCKED);

    const second = await registerAndSignIn(t.app);
    await lockForUnknownDevices(second.body.email);
    expect((await login(second.body.username, second.body.password)).status).toBe(429);
  });

  it("one account's lock does not touch another account", async () => {
    const locked = await registerAndSignIn(t.app);
    const other = await registerAndSignIn(t.app);
    await lockForUnknownDevices(locked.body.username);
    expect((await login(other.body.username, other.body.password)).status).toBe(200);
  });

  it("an unknown name is counted per typed name and answers exactly like an existing account", async () => {
    const { body } = await registerAndSignIn(t.app);
    const ghost = `Ghost-${Date.now().toString(36)}`;
    const known: Called<typeof authApi.login>[] = [];
    const unknown: Called<typeof authApi.login>[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(await login(body.username, `Wrong!pass${i}`));
      unknown.push(await login(i % 2 ? ghost.toLowerCase() : ghost, `Wrong!pass${i}`));
    }
    expect(unknown.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(unknown.map((a) => a.status)).toEqual(known.map((a) => a.status));
    expect(unknown[0]?.response.body).toBe(known[0]?.response.body);
    expect(unknown[5]?.error.message).toBe(known[5]?.error.message);
    expect(unknown[5]?.headers["retry-after"]).toBeDefined();
    // Another unknown name is not locked by the first one.
    expect((await login(`${ghost}-other`, "Wrong!pass0")).status).toBe(401);
  });
});

describe("device cookies: the lockout is no denial-of-service tool", () => {
  it("sets an httpOnly, SameSite=Lax device cookie for /api/ after a sign-in, kept after logout", async () => {
    const { body } = await registerAndSignIn(t.app);
    const owner = new CookieClient(t.app);
    const res = await login(body.username, body.password, freshIp(), owner);
    expect(res.status).toBe(200);
    const line = [res.headers["set-cookie"]].flat().find((c) => String(c).startsWith("device="));
    expect(line).toMatch(/^device=\d+\.[\w-]+\.[\w-]+;/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\/api\//);
    expect((await owner.call(authApi.logout, {})).status).toBe(200);
    expect(owner.cookie("device")).toBeDefined();
  });

  it("the owner's known browser still signs in while unknown browsers are locked out (by name and by email)", async () => {
    const { body } = await registerAndSignIn(t.app);
    const owner = new CookieClient(t.app);
    expect((await login(body.username, body.password, freshIp(), owner)).status).toBe(200);
    expect((await owner.call(authApi.logout, {})).status).toBe(200);

    await lockForUnknownDevices(body.username);
    expect((await login(body.username, body.password)).status).toBe(429);
    expect((await login(body.email, body.password)).status).toBe(429);

    const back = await login(body.email, body.password, freshIp(), owner);
    expect(back.status).toBe(200);
    expect((await owner.call(userApi.me, {})).status).toBe(200);
    // The owner's success does not clear the lock of unknown browsers.
    expect((await login(body.username, body.password)).status).toBe(429);
  });

  it("a known browser has its own 5 attempts: past them it is refused too", async () => {
    const { body } = await registerAndSignIn(t.app);
    const owner = new CookieClient(t.app);
    expect((await login(body.username, body.password, freshIp(), owner)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(body.username, `Wrong!pass${i}`, freshIp(), owner)).status).toBe(401);
    const refused = await login(body.username, body.password, freshIp(), owner);
    expect(refused.status).toBe(429);
    expect(refused.error.message).toMatch(LOCKED);
    // Its failures were its own: unknown browsers still have the account's allowance.
    expect((await login(body.username, body.password)).status).toBe(200);
  });

  it("a forged device cookie, or another account's, counts as an unknown browser", async () => {
    const victim = await registerAndSignIn(t.app);
    const stranger = await registerAndSignIn(t.app);
    const strangerBrowser = new CookieClient(t.app);
    expect((await login(stranger.body.username, stranger.body.password, freshIp(), strangerBrowser)).status).toBe(200);
    const strangerDevice = strangerBrowser.cookie("device") ?? "";
    const [, random, mac] = strangerDevice.split(".");
    await lockForUnknownDevices(victim.body.username);

    const withCookie = (cookie: string) =>
      callEndpoint(
        from(freshIp()),
        authApi.login,
        { body: { username: victim.body.username, password: victim.body.password } },
        { headers: { cookie: `device=${cookie}` } },
      );
    expect((await withCookie(strangerDevice)).status).toBe(429);
    expect((await withCookie(`${victim.user.id}.${random}.${mac}`)).status).toBe(429);
    expect((await withCookie(`${victim.user.id}.${random}.${"A".repeat(43)}`)).status).toBe(429);
    expect((await withCookie("garbage")).status).toBe(429);
  });

  it("a successful password reset ends the lockout", async () => {
    const { body } = await registerAndSignIn(t.app);
    await lockForUnknownDevices(body.username);
    expect((await login(body.username, body.password)).status).toBe(429);

    const forgot = await callEndpoint(from(freshIp()), passwordResetApi.forgot, { body: { email: body.email } });
    expect(forgot.status).toBe(200);
    const [mail] = await t.database.db
      .select({ text: emailOutbox.textBody })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, body.email), eq(emailOutbox.templateSlug, "password-reset")))
      .orderBy(desc(emailOutbox.id))
      .limit(1);
    const token = mail?.text.match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeDefined();
    const newPassword = "N3w!password";
    const reset = await callEndpoint(from(freshIp()), passwordResetApi.reset, {
      body: { token: token ?? "", password: newPassword, confirmPassword: newPassword },
    });
    expect(reset.status).toBe(200);
    expect((await login(body.username, newPassword)).status).toBe(200);
  });
});

describe("password change: count, then check, per account", () => {
  const change = (client: CookieClient, currentPassword: string) =>
    client.call(userApi.changePassword, { body: { currentPassword, newPassword: "An0ther!pass", confirmPassword: "An0ther!pass" } });

  it("30 parallel wrong current passwords check exactly 5; the right one then waits too", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => change(client, `Wrong!pass${i}`)));
    expect(statuses(answers)).toEqual({ 400: 5, 429: 25 });
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.error.message).toMatch(/^Too many wrong current passwords\. Try again in \d+ minutes?\.$/);
    expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(800);
    expect((await change(client, body.password)).status).toBe(429);
  });

  it("a success clears the count: 4 wrong, the right one, then 5 wrong are checked again", async () => {
    const { client, body } = await registerAndSignIn(t.app);
    for (let i = 0; i < 4; i++) expect((await change(client, `Wrong!pass${i}`)).status).toBe(400);
    expect((await change(client, body.password)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await change(client, `Wrong!pass${i}`)).status).toBe(400);
    expect((await change(client, "An0ther!pass")).status).toBe(429);
  });
});

describe("client address behind TRUST_PROXY", () => {
  /**
   * Registers, then signs in once per X-Forwarded-For value (from the socket address 127.0.0.1, as inject
   * sends); answers the address each sign-in was logged with and the per-address counters it hit.
   */
  async function signInsWith(env: Record<string, string>, forwardedFor: string[]) {
    const counters = createMemoryCounterStore();
    const app = await buildTestApp({ env, counters });
    try {
      const account = newAccount();
      expect((await callApp(app.app, authApi.register, { body: { ...account, planType: "free" as const } })).status).toBe(201);
      const before = (await counters.peek("auth-ip:127.0.0.1")).count;
      const ips: (string | null | undefined)[] = [];
      for (const value of forwardedFor) {
        const res = await callApp(
          app.app,
          authApi.login,
          { body: { username: account.username, password: account.password } },
          { headers: { "x-forwarded-for": value } },
        );
        expect(res.status).toBe(200);
        const [row] = await app.database.db
          .select({ ip: userActivityLogs.ipAddress })
          .from(userActivityLogs)
          .where(eq(userActivityLogs.action, "login"))
          .orderBy(desc(userActivityLogs.id))
          .limit(1);
        ips.push(row?.ip);
      }
      const counted = async (ip: string) => (await counters.peek(`auth-ip:${ip}`)).count;
      return { ips, socketCount: (await counters.peek("auth-ip:127.0.0.1")).count - before, counted };
    } finally {
      await app.close();
    }
  }
  const loginIpWith = async (env: Record<string, string>, forwardedFor: string) => (await signInsWith(env, [forwardedFor])).ips[0];

  it("TRUST_PROXY=1 reads the last untrusted hop, never a forged first value", async () => {
    expect(await loginIpWith({ TRUST_PROXY: "1" }, "1.2.3.4, 198.51.100.20")).toBe("198.51.100.20");
  });

  it("a list of proxy addresses trusts exactly those (a forged entry past them is ignored)", async () => {
    expect(await loginIpWith({ TRUST_PROXY: "127.0.0.1,10.0.0.0/8" }, "1.2.3.4, 198.51.100.20, 10.1.2.3")).toBe("198.51.100.20");
  });

  const GARBAGE = ["not-an-ip<script>", "not-an-ip<script>2", "unknown", "203.0.113.9:443", "fe80::1%eth0"];

  it.each([
    ["true", { TRUST_PROXY: "true" }],
    ["an address list", { TRUST_PROXY: "127.0.0.1,10.0.0.0/8" }],
  ])(
    "with %s, an X-Forwarded-For that is not an address is never the client: the socket's address is logged and counted",
    async (_form, env) => {
      const { ips, socketCount, counted } = await signInsWith(env, GARBAGE);
      expect(ips).toEqual(GARBAGE.map(() => "127.0.0.1"));
      // Rotating the header gave no fresh per-address allowance: every attempt counted against the socket's address.
      expect(socketCount).toBe(GARBAGE.length);
      for (const value of GARBAGE) expect({ value, count: await counted(value) }).toEqual({ value, count: 0 });
    },
  );

  it.each([
    ["true", { TRUST_PROXY: "true" }],
    ["an address list", { TRUST_PROXY: "127.0.0.1,10.0.0.0/8" }],
  ])("with %s, a valid X-Forwarded-For address is the client, logged and counted as itself", async (_form, env) => {
    const { ips, socketCount, counted } = await signInsWith(env, ["203.0.113.7", "2001:db8::7"]);
    expect(ips).toEqual(["203.0.113.7", "2001:db8::7"]);
    expect(await counted("203.0.113.7")).toBe(1);
    expect(await counted("2001:db8::7")).toBe(1);
    expect(socketCount).toBe(0);
  });

  it("behind a listed proxy, an invalid entry it passes on leaves the nearest valid hop", { timeout: 90_000 }, async () => {
    const env = { TRUST_PROXY: "127.0.0.1,10.0.0.0/8" };
    // The proxy 10.1.2.3 forwarded a client that claimed to be "not-an-ip<script>": 10.1.2.3 is the nearest valid hop.
    expect(await loginIpWith(env, "not-an-ip<script>, 10.1.2.3")).toBe("10.1.2.3");
    // Garbage beyond the client is never reached.
    expect(await loginIpWith(env, "not-an-ip<script>, 198.51.100.20, 10.1.2.3")).toBe("198.51.100.20");
  });
});
