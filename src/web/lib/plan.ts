import type { PlanType } from "../../shared/constants.js";
import type { PublicUser } from "../../shared/contracts/user.js";

/** The plans as people read them. */
export const PLAN_LABELS: Record<PlanType, string> = { free: "Free", earlyAccess: "Early Access" };

/**
 * How a signed-in free user gets Early Access. There is no self-serve upgrade
 * (the checkout is for new registrations only): an administrator changes the plan.
 */
export const UPGRADE_HINT = "Ask an administrator to upgrade your account.";

/** Early Access features (all models, personalities, course generation): the plan, or any admin (the server's rule). */
export function hasEarlyAccess(user: Pick<PublicUser, "role" | "planType"> | null | undefined): boolean {
  return user?.role === "admin" || user?.planType === "earlyAccess";
}
