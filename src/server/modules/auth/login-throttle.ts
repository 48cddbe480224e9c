import { AppError } from "../../lib/app-error.js";
import type { CounterStore } from "../../lib/counter-store.js";

const FAILURES_ALLOWED = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
const IP_REQUESTS_PER_MINUTE = 300;

const accountKey = (username: string) => `login-fail:${username.trim().toLowerCase()}`;

function tooMany(message: string, resetInMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError("TOO_MANY_REQUESTS", `${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    retryAfterSeconds: seconds,
  });
}

/** 5 failed logins on one account in 15 minutes lock it for the rest of the window. */
export async function assertAccountNotLocked(counters: CounterStore, username: string): Promise<void> {
  const state = await counters.peek(accountKey(username));
  if (state.count >= FAILURES_ALLOWED) throw tooMany("Too many failed login attempts for this account.", state.resetInMs);
}

export async function recordLoginFailure(counters: CounterStore, username: string): Promise<void> {
  await counters.hit(accountKey(username), FAILURE_WINDOW_MS);
}

export async function clearLoginFailures(counters: CounterStore, username: string): Promise<void> {
  await counters.reset(accountKey(username));
}

/** A per-address ceiling on sign-in and registration, generous enough for an office behind one NAT. */
export async function assertIpBudget(counters: CounterStore, ip: string): Promise<void> {
  const state = await counters.hit(`auth-ip:${ip}`, 60_000);
  if (state.count > IP_REQUESTS_PER_MINUTE) throw tooMany("Too many sign-in requests from your network.", state.resetInMs);
}
