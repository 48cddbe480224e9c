import { z } from "zod";
import { MAX_TOKENS, TEMPERATURE } from "../constants.js";

export const userSettingsSchema = z.object({
  defaultModel: z.string(),
  temperature: z.string(),
  maxTokens: z.number().int(),
  saveHistory: z.boolean(),
  markdownRendering: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

const temperatureField = z
  .string()
  .trim()
  .regex(/^\d(\.\d+)?$/, "Temperature must be a number between 0 and 1")
  .transform(Number)
  .refine((v) => v >= TEMPERATURE.min && v <= TEMPERATURE.max, "Temperature must be between 0 and 1")
  .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, "Temperature moves in steps of 0.1")
  .transform((v) => v.toFixed(1));

const maxTokensField = z
  .number()
  .int("Response length must be a whole number")
  .min(MAX_TOKENS.min, `Response length must be at least ${MAX_TOKENS.min}`)
  .max(MAX_TOKENS.max, `Response length cannot exceed ${MAX_TOKENS.max}`)
  .refine((v) => v % MAX_TOKENS.step === 0, `Response length moves in steps of ${MAX_TOKENS.step}`);

/** PATCH /api/user/settings sends exactly one field (spec 000 section 7). */
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
