import { afterEach, describe, expect, it } from "vitest";
import { authApi, type FreeRegisterBody } from "../../src/shared/contracts/auth.js";
import { callApp } from "../helpers/api-call.js";
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

/** A free registration (newAccount's fields), typed as the contract takes it. */
function account(): FreeRegisterBody {
  const { username, name, email, password } = newAccount();
  return { username: String(username), name: String(name), email: String(email), password: String(password), planType: "free" };
}
const register = (app: TestApp, headers: Record<string, string> = {}) =>
  callApp(app.app, authApi.register, { body: account() }, { headers });

describe("client address in the activity log", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    t = await buildTestApp();
    await register(t, { "x-forwarded-for": "203.0.113.9" });
    expect(await lastRegisterIp(t)).toBe("127.0.0.1");
  });

  it("uses X-Forwarded-For behind a trusted proxy", async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: "true" } });
    await register(t, { "x-forwarded-for": "203.0.113.9" });
    expect(await lastRegisterIp(t)).toBe("203.0.113.9");
  });
});

describe("a failure inside the server", () => {
  it("answers 500 with a plain message, never SQL or a stack", async () => {
    t = await buildTestApp();
    await t.database.db.execute("alter table user_settings rename to user_settings_gone");
    const reg = await register(t);
    expect(reg.status).toBe(500);
    // The whole body as sent: nothing but the message.
    expect(reg.response.json()).toEqual({ message: "Something went wrong on our side. Please try again in a moment." });
    expect(reg.response.body).not.toMatch(/user_settings|select|insert|at /i);
  });
});
