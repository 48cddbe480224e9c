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

/** Whether a default model value ("slug" or "slug/model") is one a usable platform offers now. */
export function offersModel(value: string, platforms: readonly ChoosablePlatform[]): boolean {
  const { slug, model } = parseModelValue(value);
  const platform = platforms.find((p) => p.slug === slug);
  return !!platform && (!model || platform.models.includes(model) || platform.defaultModel === model);
}

/**
 * The platform's default model as the admin's page shows it (decision 061): the saved value while a usable platform
 * offers it; otherwise (the product's fresh-install `openai-gpt4`, which names no platform, or a platform or model gone
 * since) the one chats use in its place, the platform `chooseModel` falls back to, by its slug so it follows that
 * platform's own default; `follows` says so. With nothing usable, the saved value stays (and still follows).
 */
export function defaultModelInForce(saved: string, platforms: readonly ChoosablePlatform[]): { value: string; follows: boolean } {
  if (offersModel(saved, platforms)) return { value: saved, follows: false };
  const fallback = chooseModel(saved, platforms);
  return { value: fallback ? fallback.aiPlatform : saved, follows: true };
}
