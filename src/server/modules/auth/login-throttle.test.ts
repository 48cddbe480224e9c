import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/app-error.js";
import { createMemoryCounterStore } from "../../lib/counter-store.js";
import { assertIpBudget, clearLoginFailures, countLoginAttempt, loginCounterKey, unlockAccount } from "./login-throttle.js";

describe("per-address budget", () => {
  it("lets an office behind one address make 300 auth requests a minute, then answers 429 with Retry-After", async () => {
    let now = 0;
    const counters = createMemoryCounterStore(() => now);
    for (let i = 0; i < 300; i++) await assertIpBudget(counters, "198.51.100.7");
    const refused = await assertIpBudget(counters, "198.51.100.7").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(429);
    expect((refused as AppError).extra.retryAfterSeconds).toBe(60);
    await expect(assertIpBudget(counters, "198.51.100.8")).resolves.toBeUndefined();
    now += 60_001;
    await expect(assertIpBudget(counters, "198.51.100.7")).resolves.toBeUndefined();
  });
});

describe("sign-in attempts, counted before the password is checked", () => {
  it("allows 5 attempts per account in 15 minutes and refuses the 6th (429, Retry-After) until the window ends", async () => {
    let now = 0;
    const counters = createMemoryCounterStore(() => now);
    for (let i = 0; i < 5; i++) await expect(countLoginAttempt(counters, { account: 7 })).resolves.toBeUndefined();
    await expect(countLoginAttempt(counters, { account: 7 })).rejects.toMatchObject({
      statusCode: 429,
      message: "Too many failed login attempts for this account. Try again in 15 minutes.",
    });
    now += 14 * 60_000;
    await expect(countLoginAttempt(counters, { account: 7 })).rejects.toMatchObject({ extra: { retryAfterSeconds: 60 } });
    // Another account, a known device of this one and an unknown name each have their own allowance.
    await expect(countLoginAttempt(counters, { account: 8 })).resolves.toBeUndefined();
    await expect(countLoginAttempt(counters, { account: 7, device: "abcdefghijklmnop" })).resolves.toBeUndefined();
    await expect(countLoginAttempt(counters, { unknownName: "nobody" })).resolves.toBeUndefined();
    now += 60_001;
    await expect(countLoginAttempt(counters, { account: 7 })).resolves.toBeUndefined();
  });

  it("a success clears the count it was made on; a password reset clears the account's lockout", async () => {
    const counters = createMemoryCounterStore();
    for (let i = 0; i < 6; i++) await countLoginAttempt(counters, { account: 3 }).catch(() => {});
    await clearLoginFailures(counters, { account: 3, device: "abcdefghijklmnop" });
    await expect(countLoginAttempt(counters, { account: 3 })).rejects.toMatchObject({ statusCode: 429 });
    await clearLoginFailures(counters, { account: 3 });
    await expect(countLoginAttempt(counters, { account: 3 })).resolves.toBeUndefined();
    for (let i = 0; i < 6; i++) await countLoginAttempt(counters, { account: 3 }).catch(() => {});
    await unlockAccount(counters, 3);
    await expect(countLoginAttempt(counters, { account: 3 })).resolves.toBeUndefined();
  });

  it("keys: per account id, per device of an account, per unknown name lowercased", () => {
    expect(loginCounterKey({ account: 12 })).toBe("login-fail:user:12");
    expect(loginCounterKey({ account: 12, device: "d3v1c3" })).toBe("login-fail:user:12:device:d3v1c3");
    expect(loginCounterKey({ unknownName: " Ghost@Example.com " })).toBe("login-fail:name:ghost@example.com");
  });
});
