import { z } from "zod";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";

/**
 * The keys the product reads (system prompts looked up by key; docs/product.md, Admin back office), with what each one
 * steers. A prompt stored under any other key is kept but read by nothing ("Unused" on the admin page).
 */
export const PRODUCT_PROMPT_KEYS = [
  {
    key: "chat-system",
    steers: "System prompt of every chat reply, before the personality's instructions. Without it, chats send none.",
  },
  {
    key: "course-outline",
    steers: "How the course builder designs an AI course outline (modules and lessons). Without it, a built-in default is used.",
  },
  {
    key: "lesson-content",
    steers: "How lesson bodies are written, by Generate content and by an approved outline. Without it, a built-in default is used.",
  },
  {
    key: "course-description",
    steers: "How a course description is written from its title. Without it, a built-in default is used.",
  },
] as const;
export type ProductPromptKey = (typeof PRODUCT_PROMPT_KEYS)[number]["key"];

/** What a key steers in the product, or undefined when nothing reads it. */
export function promptKeyUse(key: string): string | undefined {
  return PRODUCT_PROMPT_KEYS.find((k) => k.key === key)?.steers;
}

export const PROMPT_KEY_MAX = 100;
export const PROMPT_DESCRIPTION_MAX = 500;
export const PROMPT_TEXT_MAX = 20_000;

/** 409 on create or update: keys are unique. */
export const PROMPT_KEY_TAKEN = "A prompt with this key already exists";

/** The prompt dialogs and POST /api/admin/global-ai-prompts (all three required; docs/product.md, Validation messages). */
export const aiPromptBodySchema = z.object({
  key: z
    .string({ error: "Key is required" })
    .trim()
    .min(1, "Key is required")
    .max(PROMPT_KEY_MAX, `Key cannot exceed ${PROMPT_KEY_MAX} characters`)
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "Key must be lowercase letters, numbers, hyphens or underscores"),
  description: z
    .string({ error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(PROMPT_DESCRIPTION_MAX, `Description cannot exceed ${PROMPT_DESCRIPTION_MAX} characters`),
  prompt: z
    .string({ error: "Prompt is required" })
    .trim()
    .min(1, "Prompt is required")
    .max(PROMPT_TEXT_MAX, `Prompt cannot exceed ${PROMPT_TEXT_MAX} characters`),
});
export type AiPromptBody = z.input<typeof aiPromptBodySchema>;
export type AiPromptInput = z.output<typeof aiPromptBodySchema>;

/** PATCH: the same fields, each optional (what is sent must follow the same rules). */
export const updateAiPromptBodySchema = aiPromptBodySchema.partial();
export type UpdateAiPromptBody = z.input<typeof updateAiPromptBodySchema>;
export type AiPromptPatch = z.output<typeof updateAiPromptBodySchema>;

export const aiPromptSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  description: z.string(),
  prompt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AiPrompt = z.infer<typeof aiPromptSchema>;

/** Global AI prompts (admin; docs/product.md, Admin back office). */
export const aiPromptsApi = {
  list: endpoint({ method: "GET", path: "/api/admin/global-ai-prompts", access: "admin", response: z.array(aiPromptSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/global-ai-prompts",
    access: "admin",
    body: aiPromptBodySchema,
    response: aiPromptSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/global-ai-prompts/:id",
    access: "admin",
    params: idParamsSchema,
    body: updateAiPromptBodySchema,
    response: aiPromptSchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/global-ai-prompts/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
};
