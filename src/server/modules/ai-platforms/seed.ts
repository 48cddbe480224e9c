import type { Db } from "../../db/client.js";
import { aiPlatforms } from "../../db/schema/index.js";

/**
 * The four providers the product names, seeded on first boot. They show
 * "Setup Required" until a key exists (stored by an admin or from the environment).
 * Free-tier models are each provider's small model.
 */
export const SEEDED_PLATFORMS = [
  {
    name: "OpenAI",
    slug: "openai",
    kind: "openai",
    envKey: "OPENAI_API_KEY",
    models: ["gpt-5-mini", "gpt-5", "gpt-4.1", "gpt-4o-mini"],
    defaultModel: "gpt-5-mini",
    freeModels: ["gpt-4o-mini"],
  },
  {
    name: "Anthropic Claude",
    slug: "anthropic-claude",
    kind: "anthropic",
    envKey: "ANTHROPIC_API_KEY",
    models: ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"],
    defaultModel: "claude-sonnet-4-5",
    freeModels: ["claude-haiku-4-5"],
  },
  {
    name: "Deepseek",
    slug: "deepseek",
    kind: "deepseek",
    envKey: "DEEPSEEK_API_KEY",
    models: ["deepseek-chat", "deepseek-reasoner"],
    defaultModel: "deepseek-chat",
    freeModels: ["deepseek-chat"],
  },
  {
    name: "Mistral",
    slug: "mistral",
    kind: "mistral",
    envKey: "MISTRAL_API_KEY",
    models: ["mistral-small-latest", "mistral-medium-latest", "mistral-large-latest"],
    defaultModel: "mistral-small-latest",
    freeModels: ["mistral-small-latest"],
  },
] as const;

export type EnvKeyName = (typeof SEEDED_PLATFORMS)[number]["envKey"];

/** Inserts the seeded platforms that are missing; never touches ones an admin changed. */
export async function seedPlatforms(db: Db): Promise<void> {
  await db
    .insert(aiPlatforms)
    .values(
      SEEDED_PLATFORMS.map((p) => ({
        name: p.name,
        slug: p.slug,
        kind: p.kind,
        models: [...p.models],
        defaultModel: p.defaultModel,
        freeModels: [...p.freeModels],
        status: "active",
      })),
    )
    .onConflictDoNothing({ target: aiPlatforms.slug });
}

/** The environment keys by platform slug (only the ones that are set). */
export function envKeysBySlug(env: Partial<Record<EnvKeyName, string | undefined>>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const p of SEEDED_PLATFORMS) {
    const value = env[p.envKey]?.trim();
    if (value) keys[p.slug] = value;
  }
  return keys;
}
