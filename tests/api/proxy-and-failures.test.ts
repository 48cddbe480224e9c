import { afterEach, describe, expect, it } from "vitest";
import { buildTestApp, newAccount, type TestApp } from "../helpers/build-test-app.js";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function lastRegisterIp(app: TestApp) {
  const result = await app.database.db.execute(
    `select ip_address from user_activity_logs where action = 'register' order by id desc limit 1`,
  );
  return (result.rows[0] as { ip_address: string }).ip_address;
}

describe("client address in the activity log", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    t = await buildTestApp();
    await t.app.inject({ method: "POST", url: "/api/register", payload: newAccount(), headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(await lastRegisterIp(t)).toBe("127.0.0.1");
  });

  it("uses X-Forwarded-For behind a trusted proxy", async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: "true" } });
    await t.app.inject({ method: "POST", url: "/api/register", payload: newAccount(), headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(await lastRegisterIp(t)).toBe("203.0.113.9");
  });
});

describe("a failure inside the server", () => {
  it("answers 500 with a plain message, never SQL or a stack", async () => {
    t = await buildTestApp();
    await t.database.db.execute("alter table user_settings rename to user_settings_gone");
    const reg = await t.app.inject({ method: "POST", url: "/api/register", payload: newAccount() });
    expect(reg.statusCode).toBe(500);
    expect(reg.json()).toEqual({ message: "Something went wrong on our side. Please try again in a moment." });
    expect(reg.body).not.toMatch(/user_settings|select|insert|at /i);
  });
});
