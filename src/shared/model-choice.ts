/**
 * Which platform and model answer: written once for the chat screen (a new chat) and the server (course
 * generation). A model choice is a platform slug ("openai") or "slug/model" ("openai/gpt-4o-mini");
 * model names may hold "/" too.
 */
export function parseModelValue(value: string): { slug: string; model: string | null } {
  const cut = value.indexOf("/");
  return cut === -1 ? { slug: value, model: null } : { slug: value.slice(0, cut), model: value.slice(cut + 1) || null };
}

export function modelValue(slug: string, model: string | null | undefined): string {
  return model ? `${slug}/${model}` : slug;
}

/** What the choice needs of a usable platform (GET /api/ai/platforms): the models this user may pick. */
export interface ChoosablePlatform {
  slug: string;
  models: readonly string[];
  defaultModel: string;
}

/**
 * Platform and model from the user's Default model preference: that platform when usable (its own default
 * model when the one named is not offered), else the first usable platform with a model the user may pick;
 * null when none is usable. `model` is left out when the platform has no model this user may pick.
 */
export function chooseModel(
  defaultModel: string | null | undefined,
  platforms: readonly ChoosablePlatform[],
): { aiPlatform: string; model?: string } | null {
  const wanted = parseModelValue(defaultModel ?? "");
  const open = platforms.filter((p) => p.models.length > 0);
  const platform = open.find((p) => p.slug === wanted.slug) ?? open[0] ?? platforms.find((p) => p.slug === wanted.slug) ?? platforms[0];
  if (!platform) return null;
  const model =
    platform.slug === wanted.slug && wanted.model && platform.models.includes(wanted.model) ? wanted.model : platform.defaultModel;
  return model ? { aiPlatform: platform.slug, model } : { aiPlatform: platform.slug };
}
