import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authApi, type FreeRegisterBody } from "../../src/shared/contracts/auth.js";
import { userApi } from "../../src/shared/contracts/user.js";
import { callApp } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A free registration (newAccount's fields), typed as the contract takes it. */
function account(overrides: Partial<FreeRegisterBody> = {}): FreeRegisterBody {
  const { username, name, email, password } = newAccount();
  return {
    username: String(username),
    name: String(name),
    email: String(email),
    password: String(password),
    planType: "free",
    ...overrides,
  };
}
const register = (body: FreeRegisterBody) => callApp(t.app, authApi.register, { body });
/** A body the contract does not allow (unknown fields, a plan without its payment), sent as it is. */
const registerRaw = (body: unknown) => callApp(t.app, authApi.register, { body: account() }, { rawBody: body });

describe("POST /api/register", () => {
  it("makes the first account admin, the second a user, both on the free plan", async () => {
    const first = await new CookieClient(t.app).call(authApi.register, { body: account() });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ role: "admin", planType: "free" });
    const second = await new CookieClient(t.app).call(authApi.register, { body: account() });
    expect(second.status).toBe(201);
    expect(second.data).toMatchObject({ role: "user", planType: "free" });
    // As sent: the contract's parse would drop the key.
    expect(second.response.json()).not.toHaveProperty("passwordHash");
  });

  it("ignores role, hasPaid and other unknown fields", async () => {
    const client = new CookieClient(t.app);
    const body = { ...account(), role: "admin", hasPaid: true, confirmPassword: "x", acceptTerms: true };
    const res = await client.call(authApi.register, { body: account() }, { rawBody: body });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ role: "user", planType: "free" });
    const me = await client.ok(userApi.me, {});
    expect(me).toMatchObject({ role: "user", planType: "free" });
  });

  it("refuses planType earlyAccess without a paid checkout, and creates no account", async () => {
    const free = account();
    const res = await registerRaw({ ...free, planType: "earlyAccess", hasPaid: true });
    expect(res.status).toBe(400);
    expect(res.error.errors?.paymentIntentId).toBe("Early Access needs a completed payment: finish the checkout first.");
    const login = await callApp(t.app, authApi.login, { body: { username: free.username, password: free.password } });
    expect(login.status).toBe(401);
  });

  it.each([
    [{ username: "ab" }, "username", "Username must be at least 3 characters"],
    [{ username: "a".repeat(51) }, "username", "Username cannot exceed 50 characters"],
    [{ name: "A" }, "name", "Name must be at least 2 characters"],
    [{ name: "A".repeat(101) }, "name", "Name cannot exceed 100 characters"],
    [{ email: "not-an-email" }, "email", "Please enter a valid email address"],
    [{ password: "Sh0rt!" }, "password", "Password must be at least 8 characters"],
    [{ password: "lower0!case" }, "password", "Password must contain at least one uppercase letter"],
    [{ password: "UPPER0!CASE" }, "password", "Password must contain at least one lowercase letter"],
    [{ password: "NoDigits!here" }, "password", "Password must contain at least one number"],
    [{ password: "NoSpecial1here" }, "password", "Password must contain at least one special character"],
  ])("refuses %o with the product's message", async (override, field, message) => {
    const res = await register(account(override));
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(message);
    expect(res.error.errors?.[field]).toBe(message);
  });

  it("answers 409 for a taken username or email, whatever the case", async () => {
    const body = account();
    expect((await register(body)).status).toBe(201);
    const sameName = await register(account({ username: body.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.error.message).toBe("Username already exists");
    const sameEmail = await register(account({ email: body.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.error.message).toBe("An account with this email already exists");
  });

  it("signs the new account in with an httpOnly SameSite=Lax cookie whose hash alone is stored", async () => {
    const res = await register(account());

    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = cookie.slice(4, 47);
    const rows = await t.database.db.execute(`select id from sessions`);
    const ids = (rows.rows as { id: string }[]).map((r) => r.id);
    expect(ids).not.toContain(token);
    const { createHash } = await import("node:crypto");
    expect(ids).toContain(createHash("sha256").update(token).digest("hex"));
  });
});
