import type { ChatPlatform } from "../../../shared/contracts/ai-platforms.js";
import { parseModelValue } from "../../lib/ai-models.js";

/**
 * Platform and model of a new chat: the user's default model when its platform
 * is usable (its own default model when the one named is not offered), else the
 * first usable platform with a model the user may pick; null when none is usable.
 */
export function chooseChatModel(
  defaultModel: string | null | undefined,
  platforms: readonly ChatPlatform[],
): { aiPlatform: string; model?: string } | null {
  const wanted = parseModelValue(defaultModel ?? "");
  const open = platforms.filter((p) => p.models.length > 0);
  const platform = open.find((p) => p.slug === wanted.slug) ?? open[0] ?? platforms.find((p) => p.slug === wanted.slug) ?? platforms[0];
  if (!platform) return null;
  const model =
    platform.slug === wanted.slug && wanted.model && platform.models.includes(wanted.model) ? wanted.model : platform.defaultModel;
  return model ? { aiPlatform: platform.slug, model } : { aiPlatform: platform.slug };
}
