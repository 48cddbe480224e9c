import { z } from "zod";
import { MAX_TOKENS, TEMPERATURE } from "../../../../../../shared/constants.js";
import {
  type AdminPlatform,
  type CreatePlatformBody,
  createPlatformBodySchema,
  parseModelList,
  platformApiSchema,
  platformKindSchema,
  platformSettingsSchema,
  platformStatusSchema,
  type UpdatePlatformBody,
  updatePlatformBodySchema,
} from "../../../../../../shared/contracts/ai-platforms.js";

/** The models box holds "a, b, c"; each name is checked with the contract's rule. */
const modelsText = z.string().superRefine((text, ctx) => {
  const parsed = platformSettingsSchema.shape.models.safeParse(parseModelList(text));
  if (!parsed.success) ctx.addIssue({ code: "custom", message: parsed.error.issues[0]?.message ?? "Invalid models" });
});

/** The fields both forms share (the field components read them through useFormContext). */
const sharedFields = {
  apiKey: z.string().pipe(updatePlatformBodySchema.shape.apiKey.unwrap()),
  baseUrl: z.string().pipe(createPlatformBodySchema.shape.baseUrl.unwrap().unwrap()),
  modelsText,
  temperature: platformSettingsSchema.shape.temperature,
  maxTokens: platformSettingsSchema.shape.maxTokens,
  status: platformStatusSchema,
  /** OpenAI platforms only (the field shows for them): Chat Completions or Responses. */
  api: platformApiSchema,
};
export type SharedPlatformValues = z.input<z.ZodObject<typeof sharedFields>>;

export const editPlatformFormSchema = z.object({
  ...sharedFields,
  clearApiKey: z.boolean(),
  defaultModel: z.string(),
  freeModels: z.array(z.string()),
  visionModels: z.array(z.string()),
});
export type EditPlatformValues = z.input<typeof editPlatformFormSchema>;

export const createPlatformFormSchema = z.object({
  ...sharedFields,
  name: createPlatformBodySchema.shape.name,
  slug: createPlatformBodySchema.shape.slug,
  kind: platformKindSchema,
});
export type CreatePlatformValues = z.input<typeof createPlatformFormSchema>;

export const emptyCreateValues: CreatePlatformValues = {
  name: "",
  slug: "",
  kind: "openai-compatible",
  apiKey: "",
  baseUrl: "",
  modelsText: "",
  temperature: TEMPERATURE.default,
  maxTokens: MAX_TOKENS.default,
  status: "active",
  api: "chat-completions",
};

export function editValuesFrom(platform: AdminPlatform): EditPlatformValues {
  const { settings } = platform;
  return {
    apiKey: "",
    clearApiKey: false,
    baseUrl: platform.baseUrl ?? "",
    modelsText: settings.models.join(", "),
    defaultModel: settings.defaultModel ?? "",
    freeModels: settings.freeModels,
    visionModels: settings.visionModels,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    status: platform.status,
    api: platform.api,
  };
}

/** PATCH body: the key only when one was typed; the status only when the admin changed it (a new key then activates the platform). */
export function toUpdateBody(values: z.output<typeof editPlatformFormSchema>, original: AdminPlatform): UpdatePlatformBody {
  const models = parseModelList(values.modelsText);
  const defaultModel = models.includes(values.defaultModel) ? values.defaultModel : models[0];
  return {
    ...(values.apiKey ? { apiKey: values.apiKey } : values.clearApiKey ? { clearApiKey: true } : {}),
    ...(values.status !== original.status ? { status: values.status } : {}),
    ...(values.api !== original.api ? { api: values.api } : {}),
    baseUrl: values.baseUrl || null,
    settings: {
      models,
      temperature: values.temperature,
      maxTokens: values.maxTokens,
      ...(defaultModel ? { defaultModel } : {}),
      freeModels: values.freeModels.filter((m) => models.includes(m)),
      visionModels: values.visionModels.filter((m) => models.includes(m)),
    },
  };
}

export function toCreateBody(values: z.output<typeof createPlatformFormSchema>): CreatePlatformBody {
  const models = parseModelList(values.modelsText);
  return {
    name: values.name,
    slug: values.slug,
    kind: values.kind,
    // The choice shows for OpenAI only; another kind speaks its own API.
    api: values.kind === "openai" ? values.api : "chat-completions",
    ...(values.apiKey ? { apiKey: values.apiKey } : {}),
    baseUrl: values.baseUrl || null,
    status: values.status,
    settings: { models, temperature: values.temperature, maxTokens: values.maxTokens, ...(models[0] ? { defaultModel: models[0] } : {}) },
  };
}

/** Server field errors ({ "settings.temperature": msg, ... }) mapped onto the form's field names. */
export function formFieldOf(serverField: string): string {
  const name = serverField.replace(/^settings\./, "");
  return name === "models" || name.startsWith("models.") ? "modelsText" : name;
}
