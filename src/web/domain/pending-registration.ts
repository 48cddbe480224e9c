import { PENDING_REGISTRATION_KEY, type PlanType } from "../../shared/constants.js";

/**
 * Registration data kept between step 2 and the checkout (spec 000 section 3):
 * the form fields plus hasPaid and stripeCustomerId. sessionStorage only, so it
 * ends with the tab and never lands in localStorage.
 */
export type PendingRegistration = {
  username: string;
  name: string;
  email: string;
  password: string;
  planType: PlanType;
  acceptTerms: boolean;
  hasPaid: boolean;
  stripeCustomerId: string | null;
};

function isPending(value: unknown): value is PendingRegistration {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return ["username", "name", "email", "password"].every((key) => typeof v[key] === "string" && v[key] !== "");
}

export function readPendingRegistration(): PendingRegistration | null {
  try {
    const raw = sessionStorage.getItem(PENDING_REGISTRATION_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isPending(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function savePendingRegistration(data: Omit<PendingRegistration, "hasPaid" | "stripeCustomerId">): void {
  const value: PendingRegistration = { ...data, hasPaid: false, stripeCustomerId: null };
  sessionStorage.setItem(PENDING_REGISTRATION_KEY, JSON.stringify(value));
}

export function clearPendingRegistration(): void {
  try {
    sessionStorage.removeItem(PENDING_REGISTRATION_KEY);
  } catch {
    // Nothing to clear.
  }
}
