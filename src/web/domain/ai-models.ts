import { aiPlatformsApi, type ChatPlatform } from "../../shared/contracts/ai-platforms.js";
import { endpointQuery } from "../lib/endpoint-query.js";

/** GET /api/ai/platforms: the usable platforms (a key set up, active), for every model picker. */
export const aiPlatformsQuery = endpointQuery(aiPlatformsApi.forChat, {});

/** The four named providers (docs/product.md, Chat), shown even before an admin sets them up. */
export const NAMED_PLATFORMS: readonly { slug: string; name: string }[] = [
  { slug: "openai", name: "OpenAI" },
  { slug: "anthropic-claude", name: "Anthropic Claude" },
  { slug: "deepseek", name: "Deepseek" },
  { slug: "mistral", name: "Mistral" },
];

/** The platform's display name: from the usable list, else the named providers, else the slug. */
export function platformName(slug: string, platforms: readonly ChatPlatform[] | undefined): string {
  return platforms?.find((p) => p.slug === slug)?.name ?? NAMED_PLATFORMS.find((p) => p.slug === slug)?.name ?? slug;
}

/** The models a platform offers, its default first when the list leaves it out. */
export function platformModels(platform: ChatPlatform): string[] {
  return !platform.defaultModel || platform.models.includes(platform.defaultModel)
    ? platform.models
    : [platform.defaultModel, ...platform.models];
}
