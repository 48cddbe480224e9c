import { z } from "zod";
import { PLATFORM_KINDS } from "../constants.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { requiredText } from "./fields.js";
import { platformMaxTokensField, temperatureField } from "./generation-params.js";

/** The slug is derived from the name (lowercase, runs of other characters to "-", trimmed). */
export function slugFromName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The models list is comma separated and trimmed. */
export function parseModelList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
}

export const platformKindSchema = z.enum(PLATFORM_KINDS);
export type PlatformKind = z.infer<typeof platformKindSchema>;
export const platformStatusSchema = z.enum(["active", "inactive"]);

/**
 * Which OpenAI API a platform's replies use (decision 050): Chat Completions (the default, which every OpenAI-compatible
 * gateway also speaks) or Responses. Only an OpenAI platform has the choice; every other kind speaks its own API.
 */
export const platformApiSchema = z.enum(["chat-completions", "responses"]);
export type PlatformApi = z.infer<typeof platformApiSchema>;
export const API_ONLY_FOR_OPENAI = "The Responses API is only for OpenAI platforms";
/** A stored key goes only to the provider and base URL it was saved for (decision 063). */
export const API_KEY_AGAIN = "Enter the API key again: the provider or base URL changed.";
/** Whether `kind` may use `api` (the Responses API: OpenAI only). */
export const apiFitsKind = (kind: PlatformKind, api: PlatformApi) => api === "chat-completions" || kind === "openai";
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

const modelName = z.string().trim().min(1, "Model names cannot be empty").max(120, "Model names cannot exceed 120 characters");

export const platformSettingsSchema = z.object({
  models: z.array(modelName).max(100, "At most 100 models"),
  temperature: temperatureField,
  maxTokens: platformMaxTokensField,
  /** The model used when a chat names none; must be one of `models`. */
  defaultModel: modelName.optional(),
  /** Models open to free-plan users (subset of `models`). */
  freeModels: z.array(modelName).max(100).optional(),
  /** An OpenAI-compatible server's models that read images (subset of `models`; other kinds follow the catalog). */
  visionModels: z.array(modelName).max(100).optional(),
});
export type PlatformSettings = z.infer<typeof platformSettingsSchema>;

const baseUrlField = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Base URL must start with http:// or https://")
  .nullable()
  .optional();

const apiKeyField = z.string().trim().max(1000, "The API key is too long").optional();

/** POST /api/admin/ai-platforms (docs/product.md, Admin back office; plus kind and baseUrl). */
export const createPlatformBodySchema = z.object({
  name: requiredText("Name", 100),
  slug: z
    .string({ error: "Slug is required" })
    .trim()
    .min(1, "Slug is required")
    .max(60, "Slug cannot exceed 60 characters")
    .regex(/^[a-z0-9-]+$/, "Slug must contain only lowercase letters, numbers, and hyphens"),
  kind: platformKindSchema.default("openai-compatible"),
  /** OpenAI only: Chat Completions (default) or Responses. */
  api: platformApiSchema.default("chat-completions"),
  apiKey: apiKeyField,
  baseUrl: baseUrlField,
  status: platformStatusSchema.default("active"),
  settings: platformSettingsSchema,
});
export type CreatePlatformBody = z.input<typeof createPlatformBodySchema>;
export type CreatePlatformInput = z.output<typeof createPlatformBodySchema>;

/** PATCH /api/admin/ai-platforms/{id}: apiKey and settings, or status, plus name, kind, baseUrl. An empty apiKey keeps the stored one. */
export const updatePlatformBodySchema = z.object({
  name: createPlatformBodySchema.shape.name.optional(),
  kind: platformKindSchema.optional(),
  /** OpenAI only; a change of kind away from OpenAI goes back to Chat Completions unless this says otherwise. */
  api: platformApiSchema.optional(),
  apiKey: apiKeyField,
  /** true removes the stored key (the environment key, if any, then applies). */
  clearApiKey: z.boolean().optional(),
  baseUrl: baseUrlField,
  status: platformStatusSchema.optional(),
  settings: platformSettingsSchema.partial().optional(),
});
export type UpdatePlatformBody = z.input<typeof updatePlatformBodySchema>;
export type UpdatePlatformInput = z.output<typeof updatePlatformBodySchema>;

/** What an admin sees of a platform: never the key, only a hint and where it comes from. */
export const adminPlatformSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  kind: platformKindSchema,
  api: platformApiSchema,
  status: platformStatusSchema,
  baseUrl: z.string().nullable(),
  hasApiKey: z.boolean(),
  apiKeyHint: z.string().nullable(),
  apiKeySource: z.enum(["database", "environment"]).nullable(),
  /** Active and able to answer (a key, or a base URL for a keyless OpenAI-compatible server). */
  usable: z.boolean(),
  /** The last connection test: passed or not, when, and what it said (null: not tested since it was set up). */
  lastTest: z.object({ ok: z.boolean(), at: z.string(), message: z.string() }).nullable(),
  settings: z.object({
    models: z.array(z.string()),
    temperature: z.number(),
    maxTokens: z.number().int(),
    defaultModel: z.string().nullable(),
    freeModels: z.array(z.string()),
    visionModels: z.array(z.string()),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminPlatform = z.infer<typeof adminPlatformSchema>;

/** GET /api/ai/platforms: what the model pickers show to any signed-in user. */
export const chatPlatformSchema = z.object({
  name: z.string(),
  slug: z.string(),
  kind: platformKindSchema,
  /** The models this user may pick. */
  models: z.array(z.string()),
  /** The first of `models` to use when none is chosen ("" when every model is locked). */
  defaultModel: z.string(),
  /** Models shown but not usable on the user's plan, and why. */
  lockedModels: z.array(z.string()),
  lockReason: z.string().nullable(),
  /** Which of `models` and `lockedModels` read images (`acceptsImages` in shared/model-catalog.ts). */
  imageModels: z.array(z.string()),
});
export type ChatPlatform = z.infer<typeof chatPlatformSchema>;

/** GET /api/ai/platforms/turned-off: a platform set up (key or address) but turned off by an administrator. */
export const turnedOffPlatformSchema = z.object({ slug: z.string(), name: z.string() });
export type TurnedOffPlatform = z.infer<typeof turnedOffPlatformSchema>;

/** POST /api/admin/ai-platforms/{id}/test */
export const platformTestResultSchema = z.object({
  ok: z.literal(true),
  model: z.string(),
  latencyMs: z.number(),
  reply: z.string(),
});
export type PlatformTestResult = z.infer<typeof platformTestResultSchema>;

export const aiPlatformsApi = {
  /** The model pickers: any signed-in user, usable platforms only, no keys. */
  forChat: endpoint({
    method: "GET",
    path: "/api/ai/platforms",
    access: "user",
    tokenScope: "models",
    response: z.array(chatPlatformSchema),
  }),
  /** For the chat's "nothing can answer" notice: which platforms an administrator has only turned off. */
  turnedOff: endpoint({ method: "GET", path: "/api/ai/platforms/turned-off", access: "user", response: z.array(turnedOffPlatformSchema) }),
  /** The admin page's list (outside /api/admin by its path; it still answers only admins). */
  list: endpoint({ method: "GET", path: "/api/ai-platforms", access: "admin", response: z.array(adminPlatformSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/ai-platforms",
    access: "admin",
    body: createPlatformBodySchema,
    response: adminPlatformSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/ai-platforms/:id",
    access: "admin",
    params: idParamsSchema,
    body: updatePlatformBodySchema,
    response: adminPlatformSchema,
  }),
  test: endpoint({
    method: "POST",
    path: "/api/admin/ai-platforms/:id/test",
    access: "admin",
    params: idParamsSchema,
    response: platformTestResultSchema,
  }),
};
