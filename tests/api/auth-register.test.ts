import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, CookieClient, newAccount, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/register", () => {
  it("makes the first account admin, the second a user, both on the free plan", async () => {
    const first = await new CookieClient(t.app).post("/api/register", newAccount());
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ role: "admin", planType: "free" });
    const second = await new CookieClient(t.app).post("/api/register", newAccount());
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ role: "user", planType: "free" });
    expect(second.json()).not.toHaveProperty("passwordHash");
  });

  it("ignores role, hasPaid and other unknown fields", async () => {
    const client = new CookieClient(t.app);
    const res = await client.post("/api/register", newAccount({ role: "admin", hasPaid: true, confirmPassword: "x", acceptTerms: true }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ role: "user", planType: "free" });
    const me = await client.get("/api/user");
    expect(me.json()).toMatchObject({ role: "user", planType: "free" });
  });

  it("refuses planType earlyAccess without a paid checkout, and creates no account", async () => {
    const body = newAccount({ planType: "earlyAccess", hasPaid: true });
    const res = await t.app.inject({ method: "POST", url: "/api/register", payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.paymentIntentId).toBe("Early Access needs a completed payment: finish the checkout first.");
    const login = await t.app.inject({ method: "POST", url: "/api/login", payload: { username: body.username, password: body.password } });
    expect(login.statusCode).toBe(401);
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
    const res = await t.app.inject({ method: "POST", url: "/api/register", payload: newAccount(override) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors[field]).toBe(message);
  });

  it("answers 409 for a taken username or email, whatever the case", async () => {
    const body = newAccount();
    expect((await t.app.inject({ method: "POST", url: "/api/register", payload: body })).statusCode).toBe(201);
    const sameName = await t.app.inject({
      method: "POST",
      url: "/api/register",
      payload: newAccount({ username: body.username.toUpperCase() }),
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().message).toBe("Username already exists");
    const sameEmail = await t.app.inject({
      method: "POST",
      url: "/api/register",
      payload: newAccount({ email: body.email.toUpperCase() }),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe("An account with this email already exists");
  });

  it("signs the new account in with an httpOnly SameSite=Lax cookie whose hash alone is stored", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/register", payload: newAccount() });
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
