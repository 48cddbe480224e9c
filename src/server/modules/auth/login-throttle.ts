import { AppError } from "../../lib/app-error.js";
import type { CounterState, CounterStore } from "../../lib/counter-store.js";

export const FAILURES_ALLOWED = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
const IP_REQUESTS_PER_MINUTE = 300;
const ACCOUNT_LOCKED = "Too many failed login attempts for this account.";

/**
 * What a sign-in attempt is counted against: the account the typed name or email belongs to (so both
 * share one allowance), a browser that signed in to that account before (its own allowance, OWASP's
 * device cookies), or, for a name no account has, the typed name lowercased.
 */
export type LoginSubject = { account: number; device?: string } | { unknownName: string };

export function loginCounterKey(subject: LoginSubject): string {
  if ("unknownName" in subject) return `login-fail:name:${subject.unknownName.trim().toLowerCase()}`;
  const account = `login-fail:user:${subject.account}`;
  return subject.device ? `${account}:device:${subject.device}` : account;
}

export function tooMany(message: string, resetInMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new AppError("TOO_MANY_REQUESTS", `${message} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    retryAfterSeconds: seconds,
  });
}

/**
 * Counts this attempt before the password is checked (one atomic INCR or upsert), then refuses it when it
 * is past the allowance: 5 attempts per 15 minutes, so 30 parallel guesses check at most 5 passwords.
 * A success clears the count (`clearLoginFailures`), so only failures add up.
 */
export async function countLoginAttempt(counters: CounterStore, subject: LoginSubject): Promise<void> {
  const state = await counters.hit(loginCounterKey(subject), FAILURE_WINDOW_MS);
  assertWithinAllowance(state);
}

function assertWithinAllowance(state: CounterState): void {
  if (state.count > FAILURES_ALLOWED) throw tooMany(ACCOUNT_LOCKED, state.resetInMs);
}

export async function clearLoginFailures(counters: CounterStore, subject: LoginSubject): Promise<void> {
  await counters.reset(loginCounterKey(subject));
}

/** A password reset proves the owner: the lockout of unknown devices ends. */
export async function unlockAccount(counters: CounterStore, userId: number): Promise<void> {
  await counters.reset(loginCounterKey({ account: userId }));
}

/** A per-address ceiling on sign-in and registration, generous enough for an office behind one NAT. */
export async function assertIpBudget(counters: CounterStore, ip: string): Promise<void> {
  const state = await counters.hit(`auth-ip:${ip}`, 60_000);
  if (state.count > IP_REQUESTS_PER_MINUTE) throw tooMany("Too many sign-in requests from your network.", state.resetInMs);
}
