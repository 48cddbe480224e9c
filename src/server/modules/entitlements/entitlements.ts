import { canUseModel, type Entitled, hasEarlyAccess, modelLockReason, PLAN_REFUSALS, planAllows } from "../../../shared/plan.js";
import { AppError } from "../../lib/app-error.js";

export type { Entitled };

/**
 * The plan rules of src/shared/plan.ts, enforced: routes and services ask here and never compare plans
 * themselves; a refusal is a 403 that names the plan and who can help.
 */
export const entitlements = {
  hasEarlyAccess,
  canUseModel,
  modelLockReason,
  /** An MCP server's tools (issue 34): its `plans` name the user's plan, or the user is an admin. */
  planAllows,

  assertCanUseModel(who: Entitled, platform: { freeModels: string[] }, model: string): void {
    const reason = modelLockReason(who, platform, model);
    if (reason) throw new AppError("FORBIDDEN", reason);
  },

  assertCanUsePersonalities(who: Entitled): void {
    if (!hasEarlyAccess(who)) throw new AppError("FORBIDDEN", PLAN_REFUSALS.personalities);
  },

  assertCanGenerateCourses(who: Entitled): void {
    if (!hasEarlyAccess(who)) throw new AppError("FORBIDDEN", PLAN_REFUSALS.courseGeneration);
  },
};
