import { z } from "zod";
import { MAX_TOKENS, TEMPERATURE } from "../constants.js";
import { collectionIdsField } from "./chat.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { requiredText } from "./fields.js";
import { maxTokensField, temperatureField } from "./generation-params.js";
import { toolIdsField } from "./tools.js";

/** Suggested tones; any short free text is accepted too. */
export const SUGGESTED_TONES = ["friendly", "professional", "concise", "Socratic"] as const;

const slug = z
  .string()
  .trim()
  .max(60)
  .regex(/^[a-z0-9-]*$/, "Unknown AI platform");

/** The personality form and POST /api/personalities (issue 5 field names). */
export const personalityBodySchema = z.object({
  name: requiredText("Name", 80),
  description: z.string().trim().max(500, "Description cannot exceed 500 characters").default(""),
  tone: z.string().trim().max(60, "Tone cannot exceed 60 characters").default("friendly"),
  instructions: z
    .string({ error: "Instructions are required" })
    .trim()
    .min(1, "Instructions are required")
    .max(8000, "Instructions cannot exceed 8000 characters"),
  temperature: temperatureField.default(TEMPERATURE.default),
  maxTokens: maxTokensField.default(MAX_TOKENS.default),
  /** Preferred platform and model; empty means "whatever the chat uses". */
  platformSlug: slug.nullable().optional(),
  model: z.string().trim().max(120).nullable().optional(),
  /** The caller's knowledge collections searched on every reply of a chat with this personality (issue 30). */
  collectionIds: collectionIdsField.default([]),
  /** The tools a new chat with this personality starts with (issue 34); a tool the caller may not use is a 403. */
  tools: toolIdsField.default([]),
});
export type PersonalityBody = z.input<typeof personalityBodySchema>;
/** What the service receives: checked, defaults applied. */
export type PersonalityInput = z.output<typeof personalityBodySchema>;

/** PATCH: only what was sent changes. Written out, because `.partial()` keeps `.default()` and would reset fields. */
export const updatePersonalityBodySchema = z.object({
  name: personalityBodySchema.shape.name.optional(),
  description: z.string().trim().max(500, "Description cannot exceed 500 characters").optional(),
  tone: z.string().trim().max(60, "Tone cannot exceed 60 characters").optional(),
  instructions: personalityBodySchema.shape.instructions.optional(),
  temperature: temperatureField.optional(),
  maxTokens: maxTokensField.optional(),
  platformSlug: personalityBodySchema.shape.platformSlug,
  model: personalityBodySchema.shape.model,
  /** Replaces the set ([] detaches all); another user's collection is a 404. */
  collectionIds: collectionIdsField.optional(),
  tools: toolIdsField.optional(),
});
export type UpdatePersonalityBody = z.input<typeof updatePersonalityBodySchema>;
export type PersonalityPatch = z.output<typeof updatePersonalityBodySchema>;

export const personalitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  tone: z.string(),
  instructions: z.string(),
  temperature: z.number(),
  maxTokens: z.number().int(),
  platformSlug: z.string().nullable(),
  model: z.string().nullable(),
  /** Its collections, in id order. */
  collectionIds: z.array(z.number().int()),
  /** Its default tools, sorted. */
  tools: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Personality = z.infer<typeof personalitySchema>;

/** The endpoints of training personalities: owner-only, Early Access (admins always pass). */
export const personalitiesApi = {
  list: endpoint({
    method: "GET",
    path: "/api/personalities",
    access: "earlyAccess",
    feature: "personalities",
    response: z.array(personalitySchema),
  }),
  create: endpoint({
    method: "POST",
    path: "/api/personalities",
    access: "earlyAccess",
    feature: "personalities",
    body: personalityBodySchema,
    response: personalitySchema,
    status: 201,
  }),
  get: endpoint({
    method: "GET",
    path: "/api/personalities/:id",
    access: "earlyAccess",
    feature: "personalities",
    params: idParamsSchema,
    response: personalitySchema,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/personalities/:id",
    access: "earlyAccess",
    feature: "personalities",
    params: idParamsSchema,
    body: updatePersonalityBodySchema,
    response: personalitySchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/personalities/:id",
    access: "earlyAccess",
    feature: "personalities",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
