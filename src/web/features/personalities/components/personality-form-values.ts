import type { z } from "zod";
import { MAX_TOKENS, TEMPERATURE } from "../../../../shared/constants.js";
import type { Personality, personalityBodySchema } from "../../../../shared/contracts/personalities.js";

export type PersonalityFormInput = z.input<typeof personalityBodySchema>;
export type PersonalityFormOutput = z.output<typeof personalityBodySchema>;

/** The form fields, in the order the server's errors are placed under them. */
export const PERSONALITY_FIELDS = [
  "name",
  "description",
  "tone",
  "instructions",
  "temperature",
  "maxTokens",
  "platformSlug",
  "model",
  "tools",
] as const;

/** A new personality starts from the product's defaults; an edit starts from what is saved. */
export function personalityFormValues(saved?: Personality): PersonalityFormInput {
  return {
    name: saved?.name ?? "",
    description: saved?.description ?? "",
    tone: saved?.tone ?? "friendly",
    instructions: saved?.instructions ?? "",
    temperature: saved?.temperature ?? TEMPERATURE.default,
    maxTokens: saved?.maxTokens ?? MAX_TOKENS.default,
    platformSlug: saved?.platformSlug ?? null,
    model: saved?.model ?? null,
    tools: saved?.tools ?? [],
  };
}
