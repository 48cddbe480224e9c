import type { PlanType, Role } from "./constants.js";

/**
 * The plan rules (docs/product.md, Plans and limits; issue 5), written once for the server (which enforces them) and the
 * web (which shows them). Free users chat with the models an admin marked free-tier; Early Access users and
 * admins use every model, training personalities and AI course generation.
 */
export interface Entitled {
  role: Role;
  planType: PlanType;
}

/** The plans as people read them. */
export const PLAN_LABELS: Record<PlanType, string> = { free: "Free", earlyAccess: "Early Access" };

/** How a signed-in free user gets Early Access: the "Get Early Access" checkout beside each refusal. */
export const UPGRADE_MESSAGE = "Get Early Access to unlock it.";

/** What each Early Access feature says to a free user, server refusal and web notice alike. */
export const PLAN_REFUSALS = {
  personalities: `Training personalities need the Early Access plan. ${UPGRADE_MESSAGE}`,
  courseGeneration: `AI course generation needs the Early Access plan. ${UPGRADE_MESSAGE}`,
} as const;

export function hasEarlyAccess(who: Entitled | null | undefined): boolean {
  return who?.role === "admin" || who?.planType === "earlyAccess";
}

export function canUseModel(who: Entitled, platform: { freeModels: readonly string[] }, model: string): boolean {
  return hasEarlyAccess(who) || platform.freeModels.includes(model);
}

/** Why a model is locked for this user, or null when it is not. */
export function modelLockReason(who: Entitled, platform: { freeModels: readonly string[] }, model: string): string | null {
  return canUseModel(who, platform, model) ? null : `${model} needs the Early Access plan. ${UPGRADE_MESSAGE}`;
}

/**
 * Whether something an admin opened to some plans (an MCP server's `plans`, issue 34; personal API tokens'
 * `apiTokenPlans`, issue 35) is open to this user: their plan is listed, or they are an admin (admins reach every
 * model and every tool, and set these rules).
 */
export function planAllows(who: Entitled, plans: readonly string[]): boolean {
  return who.role === "admin" || plans.includes(who.planType);
}
