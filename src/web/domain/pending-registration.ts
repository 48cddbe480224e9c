import { PENDING_REGISTRATION_KEY } from "../../shared/constants.js";

/**
 * What the browser keeps between step 2 and the checkout (docs/product.md, Accounts): display data only. The
 * registration itself (with the password, hashed) was saved on the server when the checkout started, bound
 * to this browser by an httpOnly cookie, so no password ever lands in storage. sessionStorage only, so it
 * ends with the tab.
 */
export type PendingRegistration = {
  username: string;
  name: string;
  email: string;
  /** The checkout's PaymentIntent (a resumed checkout may get a new one). */
  paymentIntentId: string | null;
  hasPaid: false;
  stripeCustomerId: null;
};

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** Only the display fields, whatever was stored (an older version kept the whole form, password included). */
function toPending(value: unknown): PendingRegistration | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const username = text(v.username);
  const name = text(v.name);
  const email = text(v.email);
  if (!username || !name || !email) return null;
  return { username, name, email, paymentIntentId: text(v.paymentIntentId), hasPaid: false, stripeCustomerId: null };
}

export function readPendingRegistration(): PendingRegistration | null {
  try {
    const raw = sessionStorage.getItem(PENDING_REGISTRATION_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    const pending = toPending(parsed);
    // Anything more than the display data (a password from an older version) is dropped at once.
    if (parsed && (!pending || Object.keys(parsed).some((key) => !(key in pending)))) {
      if (pending) sessionStorage.setItem(PENDING_REGISTRATION_KEY, JSON.stringify(pending));
      else sessionStorage.removeItem(PENDING_REGISTRATION_KEY);
    }
    return pending;
  } catch {
    return null;
  }
}

export function savePendingRegistration(data: { username: string; name: string; email: string; paymentIntentId: string | null }): void {
  const value: PendingRegistration = {
    username: data.username,
    name: data.name,
    email: data.email,
    paymentIntentId: data.paymentIntentId,
    hasPaid: false,
    stripeCustomerId: null,
  };
  try {
    sessionStorage.setItem(PENDING_REGISTRATION_KEY, JSON.stringify(value));
  } catch {
    // Storage can be unavailable (private mode): nothing is kept.
  }
}

export function clearPendingRegistration(): void {
  try {
    sessionStorage.removeItem(PENDING_REGISTRATION_KEY);
  } catch {
    // Nothing to clear.
  }
}
