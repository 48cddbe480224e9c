import { chooseModel } from "../../../../shared/model-choice.js";
import type { Db } from "../../../db/client.js";
import { listChatPlatforms } from "../../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { noPlatformError, type ResolvedModel, resolveModel } from "../../ai-platforms/resolve-platform.js";
import type { Entitled } from "../../entitlements/entitlements.js";
import { readSettings } from "../../settings/settings-service.js";

/**
 * The model course generation uses: chosen as a new chat's is (shared/model-choice.ts) from the user's
 * Default model preference; null when no platform can answer them (the caller refuses, or falls back to
 * the template).
 */
export async function courseModelFor(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel | null> {
  const [settings, usable] = await Promise.all([readSettings(db, who.id), listChatPlatforms({ db, deps, who })]);
  const choice = chooseModel(settings.defaultModel, usable);
  // A platform whose every model is locked for this user cannot write a course: no model, like no platform.
  if (!choice?.model) return null;
  return resolveModel({ db, deps, who, slug: choice.aiPlatform, modelId: choice.model });
}

/** The same, refusing with the chat's 503 when no platform can answer. */
export async function requireCourseModel(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel> {
  const model = await courseModelFor(db, deps, who);
  if (!model) throw noPlatformError();
  return model;
}
