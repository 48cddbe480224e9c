import { canUseModel, type Entitled, hasEarlyAccess, modelLockReason, PLAN_REFUSALS, planAllows } from "../../../shared/plan.js";
import { AppError } from "../../lib/app-error.js";

export type { Entitled };

/**
 * The plan rules of src/shared/plan.ts, enforced: whether a plan allows something (a model, an Early Access feature,
 * what an admin opened to some plans: MCP tools, personal API tokens) is asked here, never compared by a route or a
 * service itself; a refusal is a 403 that names the plan and who can help. A plan's numbers have homes of their own
 * (allowances: ai/usage-limits.ts; the library's limits: knowledge/storage-limits.ts).
 */
export const entitlements = {
  hasEarlyAccess,
  canUseModel,
  modelLockReason,
  /** What an admin opened to some plans (an MCP server's tools, issue 34; personal API tokens, issue 35): the user's plan is listed, or they are an admin. */
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
