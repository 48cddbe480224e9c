import type { Db } from "../../../db/client.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { noPlatformError, type ResolvedModel, resolveModel } from "../../ai-platforms/resolve-platform.js";
import { listChatPlatforms } from "../../ai-platforms/service.js";
import type { Entitled } from "../../entitlements/entitlements.js";
import { readSettings } from "../../settings/service.js";

/**
 * The model course generation uses: the user's Default model preference ("slug" or
 * "slug/model") when usable, else the first platform they may use; null when no
 * platform can answer them (the caller refuses, or falls back to the template).
 */
export async function courseModelFor(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel | null> {
  const [settings, usable] = await Promise.all([readSettings(db, who.id), listChatPlatforms({ db, deps, who })]);
  const [slug, ...rest] = settings.defaultModel.split("/");
  const model = rest.join("/");
  const platform = usable.find((p) => p.slug === slug && p.models.length > 0) ?? usable.find((p) => p.models.length > 0);
  if (!platform) return null;
  return resolveModel({
    db,
    deps,
    who,
    slug: platform.slug,
    modelId: platform.slug === slug && platform.models.includes(model) ? model : null,
  });
}

/** The same, refusing with the chat's 503 when no platform can answer. */
export async function requireCourseModel(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel> {
  const model = await courseModelFor(db, deps, who);
  if (!model) throw noPlatformError();
  return model;
}
