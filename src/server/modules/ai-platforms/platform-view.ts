import type { AdminPlatform, ChatPlatform, PlatformApi, PlatformKind, PlatformStatus } from "../../../shared/contracts/ai-platforms.js";
import { acceptsImages } from "../../../shared/model-catalog.js";
import type { AiAllowance } from "../../ai/allowance.js";
import type { ProviderAccess } from "../../ai/language-model.js";
import type { aiPlatforms } from "../../db/schema/index.js";
import { keyHint } from "../../lib/key-hint.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type Entitled, entitlements } from "../entitlements/entitlements.js";
import type { PlatformCache } from "./platform-cache.js";
import { SEEDED_PLATFORMS } from "./seed.js";

export type PlatformRow = typeof aiPlatforms.$inferSelect;

export interface PlatformDeps {
  secrets: SecretBox;
  /** Keys from OPENAI_API_KEY and friends, by slug. */
  envKeys: Record<string, string>;
  /** Rows and language models as replies resolve them, cleared on every admin change (platform-cache.ts). */
  cache: PlatformCache;
  /**
   * The allowance every call for a user spends from (decision 028): each path that asks a model resolves it with
   * these deps, so a new one (tools, a tutor, an OpenAI-compatible endpoint) has it without wiring of its own.
   */
  allowance: AiAllowance;
}

/**
 * A key from the environment (OPENAI_API_KEY...) goes only to its own provider's address: the seeded platform of that
 * slug, of its seeded kind, with no base URL of its own. Pointed elsewhere, the platform needs a key typed for it (the rule
 * of every stored secret, decision 063), so a platform an admin re-points or re-creates under that slug never carries it.
 */
export function envKeyOf(row: Pick<PlatformRow, "slug" | "kind" | "baseUrl">, deps: Pick<PlatformDeps, "envKeys">): string | null {
  const seeded = SEEDED_PLATFORMS.find((p) => p.slug === row.slug);
  if (!seeded || seeded.kind !== row.kind || row.baseUrl) return null;
  return deps.envKeys[row.slug] ?? null;
}

function keySource(row: PlatformRow, deps: PlatformDeps): "database" | "environment" | null {
  if (row.apiKeyEncrypted) return "database";
  return envKeyOf(row, deps) ? "environment" : null;
}

/** Active, and able to answer: a key, or a keyless OpenAI-compatible server at a base URL (Ollama, vLLM...). */
/** A platform that could answer (a key, or a gateway's address, and models), whether or not it is on. */
function isSetUp(row: PlatformRow, deps: PlatformDeps): boolean {
  if (row.models.length === 0) return false;
  return keySource(row, deps) !== null || (row.kind === "openai-compatible" && !!row.baseUrl);
}

export function isUsable(row: PlatformRow, deps: PlatformDeps): boolean {
  return row.status === "active" && isSetUp(row, deps);
}

/** Set up, but turned off by an administrator: what the chat names when nothing else can answer. */
export function isTurnedOff(row: PlatformRow, deps: PlatformDeps): boolean {
  return row.status !== "active" && isSetUp(row, deps);
}

export function toAdminPlatform(row: PlatformRow, deps: PlatformDeps): AdminPlatform {
  const source = keySource(row, deps);
  const envKey = envKeyOf(row, deps);
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    kind: row.kind as PlatformKind,
    api: row.api as PlatformApi,
    status: row.status as PlatformStatus,
    baseUrl: row.baseUrl,
    hasApiKey: source !== null,
    apiKeyHint: source === "database" ? row.apiKeyHint : source === "environment" && envKey ? keyHint(envKey) : null,
    apiKeySource: source,
    usable: isUsable(row, deps),
    lastTest:
      row.lastTestOk !== null && row.lastTestAt
        ? { ok: row.lastTestOk, at: row.lastTestAt.toISOString(), message: row.lastTestMessage ?? "" }
        : null,
    settings: {
      models: row.models,
      temperature: Math.round(row.temperature * 100) / 100,
      maxTokens: row.maxTokens,
      defaultModel: row.defaultModel,
      freeModels: row.freeModels,
      visionModels: row.visionModels,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function defaultModelOf(row: PlatformRow): string {
  return row.defaultModel && row.models.includes(row.defaultModel) ? row.defaultModel : (row.models[0] ?? "");
}

export function toChatPlatform(row: PlatformRow, who: Entitled): ChatPlatform {
  const models = row.models.filter((m) => entitlements.canUseModel(who, row, m));
  const lockedModels = row.models.filter((m) => !models.includes(m));
  const preferred = defaultModelFor(who, row);
  return {
    name: row.name,
    slug: row.slug,
    kind: row.kind as PlatformKind,
    models,
    defaultModel: models.includes(preferred) ? preferred : "",
    lockedModels,
    lockReason: lockedModels.length ? "Needs the Early Access plan" : null,
    imageModels: row.models.filter((m) => acceptsImages(row, m)),
  };
}

/** The decrypted key (database first, then environment) and base URL: server-side only. */
export function accessFor(row: PlatformRow, deps: PlatformDeps): ProviderAccess {
  const apiKey = row.apiKeyEncrypted ? deps.secrets.open(row.apiKeyEncrypted) : envKeyOf(row, deps);
  return { kind: row.kind as PlatformKind, api: row.api as PlatformApi, slug: row.slug, apiKey, baseUrl: row.baseUrl };
}

/** The platform's default model, or for a free user the first model their plan allows. */
export function defaultModelFor(who: Entitled, platform: PlatformRow): string {
  const preferred = defaultModelOf(platform);
  if (entitlements.canUseModel(who, platform, preferred)) return preferred;
  return platform.models.find((m) => entitlements.canUseModel(who, platform, m)) ?? preferred;
}
