/** A model's readable name and one-line description, for the model pickers. */
export type ModelInfo = { name: string; description: string | null };

/** Known models by id. A dated or "-latest" id (`gpt-4o-2024-08-06`, `mistral-large-latest`) finds its base. */
const catalog: Record<string, readonly [name: string, description: string]> = {
  // OpenAI
  "gpt-5": ["GPT-5", "OpenAI's flagship for hard, many-step work"],
  "gpt-5-mini": ["GPT-5 mini", "Fast, affordable GPT-5 for everyday tasks"],
  "gpt-5-nano": ["GPT-5 nano", "The quickest, cheapest GPT-5 for short tasks"],
  "gpt-4.1": ["GPT-4.1", "Strong at code and long documents"],
  "gpt-4.1-mini": ["GPT-4.1 mini", "Balanced speed and quality, long context"],
  "gpt-4.1-nano": ["GPT-4.1 nano", "Very fast and low-cost"],
  "gpt-4o": ["GPT-4o", "Fast, capable all-rounder that also reads images"],
  "gpt-4o-mini": ["GPT-4o mini", "Quick and low-cost for everyday chat"],
  "gpt-4-turbo": ["GPT-4 Turbo", "Earlier high-quality GPT-4 model"],
  "gpt-4": ["GPT-4", "Earlier high-quality model"],
  "gpt-3.5-turbo": ["GPT-3.5 Turbo", "Older, fast and inexpensive"],
  o1: ["o1", "Reasons step by step before answering"],
  "o1-mini": ["o1-mini", "Smaller reasoning model for code and maths"],
  "o1-pro": ["o1-pro", "o1 with more thinking for the hardest problems"],
  o3: ["o3", "OpenAI's strongest reasoning model"],
  "o3-mini": ["o3-mini", "Fast reasoning for code, maths and science"],
  "o3-pro": ["o3-pro", "o3 with more thinking for the hardest problems"],
  "o4-mini": ["o4-mini", "Fast, affordable reasoning"],
  // Anthropic
  "claude-opus-4-1": ["Claude Opus 4.1", "Anthropic's most capable model for complex work"],
  "claude-opus-4": ["Claude Opus 4", "Anthropic's most capable model for complex work"],
  "claude-sonnet-4-5": ["Claude Sonnet 4.5", "Top coding and agent model, fast"],
  "claude-sonnet-4": ["Claude Sonnet 4", "High intelligence at balanced speed"],
  "claude-haiku-4-5": ["Claude Haiku 4.5", "Anthropic's fastest current model"],
  "claude-3-7-sonnet": ["Claude 3.7 Sonnet", "Can think at length before answering"],
  "claude-3-5-sonnet": ["Claude 3.5 Sonnet", "Smart and fast for most tasks"],
  "claude-3-5-haiku": ["Claude 3.5 Haiku", "Fast and light"],
  "claude-3-opus": ["Claude 3 Opus", "Earlier top Claude model"],
  "claude-3-sonnet": ["Claude 3 Sonnet", "Earlier balanced Claude model"],
  "claude-3-haiku": ["Claude 3 Haiku", "Earlier fast Claude model"],
  // DeepSeek
  "deepseek-chat": ["DeepSeek Chat", "DeepSeek's general chat model (V3)"],
  "deepseek-reasoner": ["DeepSeek Reasoner", "Thinks step by step before answering (R1)"],
  // Mistral
  "mistral-large": ["Mistral Large", "Mistral's flagship for complex tasks"],
  "mistral-medium": ["Mistral Medium", "Strong quality at a moderate cost"],
  "mistral-small": ["Mistral Small", "Fast and efficient for everyday tasks"],
  "mistral-tiny": ["Mistral Tiny", "Smallest, quickest Mistral"],
  "magistral-medium": ["Magistral Medium", "Mistral's reasoning model"],
  "magistral-small": ["Magistral Small", "Compact reasoning model"],
  codestral: ["Codestral", "Mistral's model for writing code"],
  "pixtral-large": ["Pixtral Large", "Reads images as well as text"],
  "ministral-8b": ["Ministral 8B", "Small and fast"],
  "ministral-3b": ["Ministral 3B", "Tiny and very fast"],
  "open-mistral-nemo": ["Mistral NeMo", "Open 12B model, multilingual"],
};

/** What may follow a known id: a date or version (`-20241022`, `-2024-08-06`, `-2411`) or `-latest`. */
const VERSION_SUFFIX = /^-(?:latest|\d[\d-]*)$/;

function lookUp(id: string): ModelInfo | null {
  const exact = catalog[id];
  if (exact) return { name: exact[0], description: exact[1] };
  const base = Object.keys(catalog)
    .filter((key) => id.startsWith(key) && VERSION_SUFFIX.test(id.slice(key.length)))
    .sort((a, b) => b.length - a.length)[0];
  const entry = base ? catalog[base] : undefined;
  return entry ? { name: entry[0], description: entry[1] } : null;
}

/**
 * The readable name and description of a model id. A gateway's `vendor/model` id (OpenRouter) is looked up
 * by its last part. Unknown models (an OpenAI-compatible server's own) keep their bare id and no description.
 */
export function describeModel(id: string): ModelInfo {
  const key = id.trim().toLowerCase();
  return lookUp(key) ?? lookUp(key.slice(key.lastIndexOf("/") + 1)) ?? { name: id, description: null };
}

/** The readable name alone. */
export function modelName(id: string): string {
  return describeModel(id).name;
}

/**
 * Which models read images (issue 30), by the providers' own documentation. A dated, "-latest" or gateway
 * (`vendor/model`) id is judged by its base. OpenAI: GPT-4o, GPT-4.1, GPT-5, GPT-4 Turbo and the o-series that
 * take images (o1, o1-pro, o3, o3-pro, o4-mini; not o1-mini or o3-mini). Anthropic: every Claude 3 and later.
 * Mistral: Pixtral, Mistral Medium 3 and later (2505+), Mistral Small 3.1 and later (2503+), Mistral Large 3
 * (2512+; Large 2.1, 2411, has no vision: Pixtral Large is its vision model), Magistral 1.2 (2509+), Ministral 3
 * (2512+). DeepSeek: none. An OpenAI-compatible server: the models its administrator marked (`visionModels`).
 */
const OPENAI_VISION = /^(?:gpt-4o|gpt-4\.1|gpt-5|gpt-4-turbo(?!-preview)|chatgpt-4o|o1(?!-mini)|o3(?!-mini)|o4-mini)(?:$|-)/;
const ANTHROPIC_VISION = /^claude-(?:3|opus-4|sonnet-4|haiku-4|opus-5|sonnet-5|haiku-5)/;
const MISTRAL_DATED = /^(mistral-medium|mistral-small|mistral-large|magistral-medium|magistral-small|ministral-\d+b)-(\d{4})$/;
const MISTRAL_SINCE: Record<string, number> = {
  "mistral-medium": 2505,
  "mistral-small": 2503,
  "mistral-large": 2512,
  "magistral-medium": 2509,
  "magistral-small": 2509,
};

function mistralReadsImages(id: string): boolean {
  if (id.startsWith("pixtral")) return true;
  if (/^(?:mistral-medium|mistral-small|mistral-large)-latest$/.test(id)) return true;
  const dated = MISTRAL_DATED.exec(id);
  if (!dated) return false;
  const [, base = "", version = "0"] = dated;
  const since = MISTRAL_SINCE[base] ?? (base.startsWith("ministral-") ? 2512 : Number.POSITIVE_INFINITY);
  return Number(version) >= since;
}

/** A platform as far as images go: its kind, and for an OpenAI-compatible server the models its admin marked. */
export interface VisionPlatform {
  kind: string;
  visionModels?: readonly string[] | null;
}

/** Whether `model` on `platform` accepts images: the one rule, for the server's refusal and the web's warning. */
export function acceptsImages(platform: VisionPlatform, model: string): boolean {
  const id = model.trim().toLowerCase();
  const bare = id.slice(id.lastIndexOf("/") + 1);
  switch (platform.kind) {
    case "openai":
      return OPENAI_VISION.test(bare);
    case "anthropic":
      return ANTHROPIC_VISION.test(bare);
    case "mistral":
      return mistralReadsImages(bare);
    case "openai-compatible":
      return (platform.visionModels ?? []).some((m) => m.trim().toLowerCase() === id);
    default:
      return false;
  }
}

/**
 * The words when an image goes to a model that cannot read it: the web's warning before sending and the server's
 * 400, the same. `choices`: models the user may use that can (up to three are named).
 */
export function cannotReadImagesMessage(model: string, choices: readonly string[]): string {
  const named = choices.slice(0, 3).map(modelName);
  const suffix =
    named.length === 0
      ? "No model you can use reads images: remove the image to send."
      : `Choose a model that can, such as ${named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`}.`;
  return `${modelName(model)} cannot read images. ${suffix}`;
}
