import { chooseModel, parseModelValue } from "../../../shared/model-choice.js";
import type { Db } from "../../db/client.js";
import { listChatPlatforms } from "../ai-platforms/ai-platforms-service.js";
import type { PlatformDeps } from "../ai-platforms/platform-view.js";
import type { Entitled } from "../entitlements/entitlements.js";
import type { EffectivePlatformSettings } from "./reader.js";

export interface ModelChoice {
  slug: string;
  model: string | null;
}

/**
 * Model selection off: the platform and model every chat uses, whatever the client sent. That is the
 * settings' default model ("slug" or "slug/model") when this user can use it, else what `chooseModel`
 * falls back to (the platform's own default, then the first usable platform). Null while selection is on.
 * With nothing usable the named platform stays, and the reply then says plainly that none is set up.
 */
export async function adminChosenModel(options: {
  db: Db;
  deps: PlatformDeps;
  who: Entitled;
  settings: Pick<EffectivePlatformSettings, "enableModelSelection" | "defaultModel">;
}): Promise<ModelChoice | null> {
  const { settings } = options;
  if (settings.enableModelSelection) return null;
  const usable = await listChatPlatforms({ db: options.db, deps: options.deps, who: options.who });
  const choice = chooseModel(settings.defaultModel, usable);
  if (choice) return { slug: choice.aiPlatform, model: choice.model ?? null };
  return { slug: parseModelValue(settings.defaultModel).slug, model: null };
}
