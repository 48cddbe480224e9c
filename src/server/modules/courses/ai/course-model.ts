import type { Db } from "../../../db/client.js";
import type { PlatformDeps } from "../../ai-platforms/platform-view.js";
import { type ResolvedModel, resolveModel } from "../../ai-platforms/resolve-platform.js";
import { listChatPlatforms } from "../../ai-platforms/service.js";
import type { Entitled } from "../../entitlements/entitlements.js";
import { getSettings } from "../../settings/service.js";

/**
 * The model course generation uses: the user's Default model preference ("slug" or
 * "slug/model") when usable, else the first platform they may use. Throws the chat's
 * clear 503 when no platform is set up at all.
 */
export async function courseModelFor(db: Db, deps: PlatformDeps, who: Entitled & { id: number }): Promise<ResolvedModel> {
  const settings = await getSettings({ db, userId: who.id });
  const [slug, ...rest] = settings.defaultModel.split("/");
  const usable = await listChatPlatforms({ db, deps, who });
  const preferred = usable.find((p) => p.slug === slug);
  const model = rest.join("/");
  if (preferred) return resolveModel({ db, deps, who, slug: preferred.slug, modelId: preferred.models.includes(model) ? model : null });
  const first = usable.find((p) => p.models.length > 0);
  return resolveModel({ db, deps, who, slug: first?.slug ?? slug ?? "openai" });
}

/** True when some platform can answer this user (else the outline falls back to the template). */
export async function hasUsableModel(db: Db, deps: PlatformDeps, who: Entitled): Promise<boolean> {
  return (await listChatPlatforms({ db, deps, who })).some((p) => p.models.length > 0);
}
