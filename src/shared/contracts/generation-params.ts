import { z } from "zod";
import { MAX_TOKENS, TEMPERATURE } from "../constants.js";

/**
 * Temperature and response length: one definition for user settings, personalities and AI platforms.
 * A temperature is a number from 0 to 1 in steps of 0.1, stored exactly (numeric(3,2)) and sent to the
 * provider as the number chosen. The settings call sends the user setting as text ("0.7"), so text is read too.
 */
export const TEMPERATURE_MESSAGES = {
  notANumber: "Temperature must be a number between 0 and 1",
  range: "Temperature must be between 0 and 1",
  step: "Temperature moves in steps of 0.1",
} as const;

const tenths = (value: number) => Math.round(value * 10) / 10;

export const temperatureField = z.union([z.number(), z.string()], { error: TEMPERATURE_MESSAGES.range }).transform((raw, ctx) => {
  if (typeof raw === "string" && !/^\d(\.\d+)?$/.test(raw.trim())) {
    ctx.addIssue({ code: "custom", message: TEMPERATURE_MESSAGES.notANumber });
    return z.NEVER;
  }
  const value = Number(raw);
  if (!Number.isFinite(value) || value < TEMPERATURE.min || value > TEMPERATURE.max) {
    ctx.addIssue({ code: "custom", message: TEMPERATURE_MESSAGES.range });
    return z.NEVER;
  }
  if (Math.abs(value * 10 - Math.round(value * 10)) > 1e-9) {
    ctx.addIssue({ code: "custom", message: TEMPERATURE_MESSAGES.step });
    return z.NEVER;
  }
  return tenths(value);
});

/** The user setting's wire format (docs/product.md, Accounts): "0.7", "1.0". */
export function temperatureText(value: number): string {
  return tenths(value).toFixed(1);
}

/** Response length of user settings and personalities: 256 to 4096 tokens in steps of 256. */
export const maxTokensField = z
  .number({ error: `Response length must be between ${MAX_TOKENS.min} and ${MAX_TOKENS.max}` })
  .int("Response length must be a whole number")
  .min(MAX_TOKENS.min, `Response length must be at least ${MAX_TOKENS.min}`)
  .max(MAX_TOKENS.max, `Response length cannot exceed ${MAX_TOKENS.max}`)
  .refine((v) => v % MAX_TOKENS.step === 0, `Response length moves in steps of ${MAX_TOKENS.step}`);

/** An AI platform's own ceiling ("maxTokens at least 1"); a provider may allow far more than a user setting. */
export const platformMaxTokensField = z
  .number({ error: "Max tokens must be at least 1" })
  .int("Max tokens must be a whole number")
  .min(1, "Max tokens must be at least 1")
  .max(1_000_000, "Max tokens cannot exceed 1000000");
