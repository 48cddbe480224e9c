import { asc, eq, ne } from "drizzle-orm";
import {
  type AdminPlatform,
  API_KEY_AGAIN,
  API_ONLY_FOR_OPENAI,
  apiFitsKind,
  type ChatPlatform,
  type CreatePlatformInput,
  type PlatformApi,
  type PlatformKind,
  type TurnedOffPlatform,
  type UpdatePlatformInput,
} from "../../../shared/contracts/ai-platforms.js";
import type { Db } from "../../db/client.js";
import { aiPlatforms } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { keyHint } from "../../lib/key-hint.js";
import { assertStoredSecretStaysHome } from "../../lib/stored-secret.js";
import type { Who } from "../../lib/who.js";
import type { Entitled } from "../entitlements/entitlements.js";
import {
  defaultModelOf,
  isTurnedOff,
  isUsable,
  type PlatformDeps,
  type PlatformRow,
  toAdminPlatform,
  toChatPlatform,
} from "./platform-view.js";

/** Admin services receive the admin acting (`who`); the pickers, the user whose plan locks models. */
type Options = { db: Db; deps: PlatformDeps; who: Who };

export async function listAdminPlatforms({ db, deps }: Options): Promise<AdminPlatform[]> {
  const rows = await db.select().from(aiPlatforms).orderBy(asc(aiPlatforms.id));
  return rows.map((row) => toAdminPlatform(row, deps));
}

/** The platforms that can answer right now (on, and set up), in the admin's order. */
export async function listUsablePlatformRows({ db, deps }: Omit<Options, "who">): Promise<PlatformRow[]> {
  const rows = await db.select().from(aiPlatforms).where(eq(aiPlatforms.status, "active")).orderBy(asc(aiPlatforms.id));
  return rows.filter((row) => isUsable(row, deps));
}

/** GET /api/ai/platforms: only what can answer right now, with the models this user's plan locks. */
export async function listChatPlatforms({ db, deps, who }: Omit<Options, "who"> & { who: Entitled }): Promise<ChatPlatform[]> {
  return (await listUsablePlatformRows({ db, deps })).map((row) => toChatPlatform(row, who));
}

/** GET /api/ai/platforms/turned-off: the names of platforms set up but turned off (no key, no settings). */
export async function listTurnedOffPlatforms({ db, deps }: Omit<Options, "who">): Promise<TurnedOffPlatform[]> {
  const rows = await db.select().from(aiPlatforms).where(ne(aiPlatforms.status, "active")).orderBy(asc(aiPlatforms.id));
  return rows.filter((row) => isTurnedOff(row, deps)).map((row) => ({ slug: row.slug, name: row.name }));
}

export async function findPlatformRow(db: Db, where: { id: number } | { slug: string }): Promise<PlatformRow | undefined> {
  const condition = "id" in where ? eq(aiPlatforms.id, where.id) : eq(aiPlatforms.slug, where.slug);
  const [row] = await db.select().from(aiPlatforms).where(condition).limit(1);
  return row;
}

/** Keeps the default, the free-tier and the vision models inside the model list, whatever was sent. */
function consistentModels(models: string[], defaultModel: string | null | undefined, freeModels: string[], visionModels: string[]) {
  return {
    models,
    defaultModel: defaultModel && models.includes(defaultModel) ? defaultModel : (models[0] ?? null),
    freeModels: freeModels.filter((m) => models.includes(m)),
    visionModels: visionModels.filter((m) => models.includes(m)),
  };
}

/** The Responses API is OpenAI's own: asked of another kind, a 400 under `api` (decision 050). */
function assertApiFits(kind: PlatformKind, api: PlatformApi): void {
  if (!apiFitsKind(kind, api)) throw new AppError("BAD_REQUEST", API_ONLY_FOR_OPENAI, { errors: { api: API_ONLY_FOR_OPENAI } });
}

function sealedKey(deps: PlatformDeps, apiKey: string) {
  return { apiKeyEncrypted: deps.secrets.seal(apiKey), apiKeyHint: keyHint(apiKey) };
}

export async function createPlatform(options: Options & { input: CreatePlatformInput }): Promise<AdminPlatform> {
  const { db, deps } = options;
  const input = options.input;
  const { settings } = input;
  assertApiFits(input.kind, input.api);
  const [row] = await db
    .insert(aiPlatforms)
    .values({
      name: input.name,
      slug: input.slug,
      kind: input.kind,
      api: input.api,
      baseUrl: input.baseUrl || null,
      status: input.status,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      ...consistentModels(settings.models, settings.defaultModel, settings.freeModels ?? [], settings.visionModels ?? []),
      ...(input.apiKey ? sealedKey(deps, input.apiKey) : {}),
    })
    .onConflictDoNothing({ target: aiPlatforms.slug })
    .returning();
  // The unique slug decides, in the insert itself (no separate lookup that a racing create could pass).
  if (!row) throw new AppError("CONFLICT", "A platform with this slug already exists", { errors: { slug: "This slug is taken" } });
  deps.cache.changed();
  return toAdminPlatform(row, deps);
}

export async function updatePlatform(options: Options & { id: number; input: UpdatePlatformInput }): Promise<AdminPlatform> {
  const { db, deps, id, input } = options;
  const row = await findPlatformRow(db, { id });
  if (!row) throw new AppError("NOT_FOUND", "AI platform not found");
  const settings = input.settings ?? {};
  const models = settings.models ?? row.models;
  const change: Partial<typeof aiPlatforms.$inferInsert> = {
    updatedAt: new Date(),
    ...consistentModels(
      models,
      settings.defaultModel ?? row.defaultModel,
      settings.freeModels ?? row.freeModels,
      settings.visionModels ?? row.visionModels,
    ),
  };
  if (input.name !== undefined) change.name = input.name;
  if (input.kind !== undefined) change.kind = input.kind;
  // A kind other than OpenAI goes back to Chat Completions unless the request names an API (then it must fit).
  const kind = (input.kind ?? row.kind) as PlatformKind;
  const api = input.api ?? (apiFitsKind(kind, row.api as PlatformApi) ? (row.api as PlatformApi) : "chat-completions");
  assertApiFits(kind, api);
  // The stored key goes only to the provider and base URL it was saved for: moving it there needs it typed again.
  if (row.apiKeyEncrypted && !input.apiKey && !input.clearApiKey) {
    assertStoredSecretStaysHome(
      { kind: row.kind, baseUrl: row.baseUrl },
      { kind: input.kind, baseUrl: input.baseUrl },
      { field: "apiKey", message: API_KEY_AGAIN },
    );
  }
  change.api = api;
  if (input.baseUrl !== undefined) change.baseUrl = input.baseUrl || null;
  if (settings.temperature !== undefined) change.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) change.maxTokens = settings.maxTokens;
  if (input.clearApiKey) Object.assign(change, { apiKeyEncrypted: null, apiKeyHint: null });
  if (input.apiKey) Object.assign(change, sealedKey(deps, input.apiKey));
  if (input.status !== undefined) change.status = input.status;
  // Giving a disabled platform a key means "use it": it turns active unless told otherwise.
  else if (input.apiKey && row.status === "inactive") change.status = "active";
  // The last connection test no longer speaks for a platform whose key, address, kind or tested model changed.
  const retest =
    input.apiKey ||
    input.clearApiKey ||
    (input.kind !== undefined && input.kind !== row.kind) ||
    api !== row.api ||
    (input.baseUrl !== undefined && (input.baseUrl || null) !== row.baseUrl) ||
    defaultModelOf({ ...row, ...change } as PlatformRow) !== defaultModelOf(row);
  if (retest) Object.assign(change, { lastTestOk: null, lastTestAt: null, lastTestMessage: null });
  const [updated] = await db.update(aiPlatforms).set(change).where(eq(aiPlatforms.id, id)).returning();
  if (!updated) throw new AppError("NOT_FOUND", "AI platform not found");
  deps.cache.changed();
  return toAdminPlatform(updated, deps);
}
