import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/app-error.js";
import { createMemoryCounterStore } from "../../lib/counter-store.js";
import { assertAccountNotLocked, assertIpBudget, clearLoginFailures, recordLoginFailure } from "./login-throttle.js";

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

describe("per-account lock", () => {
  it("locks after 5 failures for the rest of 15 minutes, case-insensitively; success clears it", async () => {
    let now = 0;
    const counters = createMemoryCounterStore(() => now);
    for (let i = 0; i < 4; i++) await recordLoginFailure(counters, "Alice");
    await expect(assertAccountNotLocked(counters, "alice")).resolves.toBeUndefined();
    await recordLoginFailure(counters, "ALICE");
    await expect(assertAccountNotLocked(counters, "alice")).rejects.toMatchObject({ statusCode: 429 });
    now += 14 * 60_000;
    await expect(assertAccountNotLocked(counters, "alice")).rejects.toMatchObject({ extra: { retryAfterSeconds: 60 } });
    now += 60_001;
    await expect(assertAccountNotLocked(counters, "alice")).resolves.toBeUndefined();
    for (let i = 0; i < 5; i++) await recordLoginFailure(counters, "bob");
    await clearLoginFailures(counters, "Bob");
    await expect(assertAccountNotLocked(counters, "bob")).resolves.toBeUndefined();
  });
});
