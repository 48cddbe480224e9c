import type { LanguageModel } from "../../ai/generate.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../lib/app-error.js";
import { type Entitled, entitlements } from "../entitlements/entitlements.js";
import { findPlatformRow, listChatPlatforms } from "./ai-platforms-service.js";
import { defaultModelFor, isUsable, type PlatformDeps, type PlatformRow } from "./platform-view.js";

export interface ResolvedModel {
  platform: PlatformRow;
  modelId: string;
  model: LanguageModel;
}

const NOT_SET_UP = "an administrator needs to add its API key under Admin > AI Chat Settings.";

/** The refusal when no platform at all can answer (503): chat and course generation say the same. */
export function noPlatformError(): AppError {
  return new AppError("UNAVAILABLE", `No AI platform is set up yet: ${NOT_SET_UP}`);
}

/** The refusal of a platform an administrator turned off, chosen while others can answer (409). */
export const platformTurnedOff = (name: string) => `${name} is turned off. Choose another model.`;

/**
 * The platform and model a reply will use, or a clear refusal: unknown platform (400), platform turned
 * off (409), platform not set up (503), model not offered (400); no platform at all can answer (503).
 * Never a made-up answer.
 */
export async function resolveModel(options: {
  db: Db;
  deps: PlatformDeps;
  who: Entitled;
  slug: string;
  modelId?: string | null;
}): Promise<ResolvedModel> {
  const { db, deps, slug, who } = options;
  const platform = await deps.cache.bySlug(slug, () => findPlatformRow(db, { slug }));
  if (!platform || !isUsable(platform, deps)) {
    const usable = await listChatPlatforms({ db, deps, who });
    if (usable.length === 0) {
      throw noPlatformError();
    }
    if (!platform) throw new AppError("BAD_REQUEST", "Unknown AI platform. Pick another model.");
    // Turned off by an administrator while others answer: the caller chose it, so a 4xx that says to choose again.
    if (platform.status !== "active") throw new AppError("CONFLICT", platformTurnedOff(platform.name));
    throw new AppError("UNAVAILABLE", `${platform.name} is not set up yet: ${NOT_SET_UP}`);
  }
  const modelId = options.modelId || defaultModelFor(who, platform);
  if (!platform.models.includes(modelId)) throw new AppError("BAD_REQUEST", `${platform.name} does not offer the model "${modelId}".`);
  entitlements.assertCanUseModel(who, platform, modelId);
  return { platform, modelId, model: deps.cache.modelFor(platform, deps, modelId) };
}
