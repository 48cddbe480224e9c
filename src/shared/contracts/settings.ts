import { z } from "zod";
import { endpoint } from "./endpoint.js";
import { maxTokensField, temperatureField } from "./generation-params.js";

export const userSettingsSchema = z.object({
  defaultModel: z.string(),
  temperature: z.string(),
  maxTokens: z.number().int(),
  saveHistory: z.boolean(),
  markdownRendering: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

/** PATCH /api/user/settings sends exactly one field. */
export const settingsPatchSchema = z
  .strictObject(
    {
      defaultModel: z.string().trim().min(1, "Default model is required").max(100).optional(),
      temperature: temperatureField.optional(),
      maxTokens: maxTokensField.optional(),
      saveHistory: z.boolean().optional(),
      markdownRendering: z.boolean().optional(),
    },
    { error: "Unknown setting: send one of defaultModel, temperature, maxTokens, saveHistory, markdownRendering" },
  )
  .refine((body) => Object.values(body).filter((v) => v !== undefined).length === 1, {
    message: "Send exactly one setting at a time",
  });
export type SettingsPatch = z.input<typeof settingsPatchSchema>;
/** The checked change the service writes (the temperature as a number). */
export type SettingsChange = z.output<typeof settingsPatchSchema>;

export const settingsApi = {
  get: endpoint({ method: "GET", path: "/api/user/settings", access: "user", response: userSettingsSchema }),
  update: endpoint({
    method: "PATCH",
    path: "/api/user/settings",
    access: "user",
    body: settingsPatchSchema,
    response: userSettingsSchema,
  }),
};
