import { AppError } from "../../lib/app-error.js";

/** Who is asking: what every plan rule needs to know. */
export interface Entitled {
  role: "user" | "admin";
  planType: "free" | "earlyAccess";
}

// Signed-in users cannot buy the plan themselves yet (the checkout is part of registration): say who can help.
const UPGRADE = "An administrator can upgrade your account.";

/**
 * The plan rules (DESIGN.md section 4, issue 5), written once. Free users chat
 * with the models an admin marked free-tier; Early Access users and admins use
 * every model, personalities and AI course generation. Routes and services ask
 * here; they never compare plans themselves.
 */
export const entitlements = {
  hasEarlyAccess(who: Entitled): boolean {
    return who.role === "admin" || who.planType === "earlyAccess";
  },

  canUseModel(who: Entitled, platform: { freeModels: string[] }, model: string): boolean {
    return entitlements.hasEarlyAccess(who) || platform.freeModels.includes(model);
  },

  /** Why a model is locked for this user, or null when it is not. */
  modelLockReason(who: Entitled, platform: { freeModels: string[] }, model: string): string | null {
    return entitlements.canUseModel(who, platform, model) ? null : `${model} needs the Early Access plan. ${UPGRADE}`;
  },

  assertCanUseModel(who: Entitled, platform: { name: string; freeModels: string[] }, model: string): void {
    const reason = entitlements.modelLockReason(who, platform, model);
    if (reason) throw new AppError("FORBIDDEN", reason);
  },

  assertCanUsePersonalities(who: Entitled): void {
    if (!entitlements.hasEarlyAccess(who)) {
      throw new AppError("FORBIDDEN", `Training personalities need the Early Access plan. ${UPGRADE}`);
    }
  },

  assertCanGenerateCourses(who: Entitled): void {
    if (!entitlements.hasEarlyAccess(who)) {
      throw new AppError("FORBIDDEN", `AI course generation needs the Early Access plan. ${UPGRADE}`);
    }
  },
};
