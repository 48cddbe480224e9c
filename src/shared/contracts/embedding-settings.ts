import { z } from "zod";
import { endpoint } from "./endpoint.js";

/**
 * The embedding model of the knowledge library (issue 30, decision 036): the admin picks a platform and one of its
 * embedding models in AI Chat Settings; none means retrieval is full text only. Changing it re-embeds every file in
 * the background (files stay ready meanwhile); `reindex` counts the files done with the model now set.
 */

export const EMBEDDING_MODEL_MAX = 200;
export const EMBEDDING_MODEL_PLACEHOLDER = "text-embedding-3-small";
export const NO_PGVECTOR = "pgvector is not installed on this database: retrieval uses full-text search only.";
export const EMBEDDINGS_NEED_BOTH = "Choose both a platform and a model, or neither.";
export const EMBEDDINGS_UNKNOWN_PLATFORM = "Unknown AI platform.";
export const embeddingsNotOffered = (name: string) =>
  `${name} has no embedding models: choose OpenAI, Mistral or an OpenAI-compatible platform.`;

const optionalText = (max: number, label: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? null : value),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(max, `${label} cannot exceed ${max} characters`)
      .nullable(),
  );

export const embeddingSettingsBodySchema = z
  .object({
    platformSlug: optionalText(100, "Platform"),
    model: optionalText(EMBEDDING_MODEL_MAX, "Model"),
  })
  .refine((body) => (body.platformSlug === null) === (body.model === null), { message: EMBEDDINGS_NEED_BOTH, path: ["model"] });
export type EmbeddingSettingsBody = z.input<typeof embeddingSettingsBodySchema>;
export type EmbeddingSettingsInput = z.output<typeof embeddingSettingsBodySchema>;

export const embeddingSettingsSchema = z.object({
  platformSlug: z.string().nullable(),
  model: z.string().nullable(),
  /** pgvector is installed: without it retrieval is full text only, whatever is chosen. */
  vectorAvailable: z.boolean(),
  /** Files read into pieces, and those of them whose vectors come from the model now set (both 0 with none set). */
  reindex: z.object({ done: z.number().int(), total: z.number().int() }),
});
export type EmbeddingSettings = z.infer<typeof embeddingSettingsSchema>;

export const embeddingSettingsApi = {
  get: endpoint({ method: "GET", path: "/api/admin/embedding-settings", access: "admin", response: embeddingSettingsSchema }),
  update: endpoint({
    method: "PUT",
    path: "/api/admin/embedding-settings",
    access: "admin",
    body: embeddingSettingsBodySchema,
    response: embeddingSettingsSchema,
  }),
};

export const knowledgeStatusSchema = z.object({
  /** Meaning-based (vector) search is on: an embedding model is set and pgvector is installed. Else full text only. */
  semantic: z.boolean(),
});
export type KnowledgeStatus = z.infer<typeof knowledgeStatusSchema>;

export const knowledgeStatusApi = {
  get: endpoint({ method: "GET", path: "/api/knowledge/status", access: "user", response: knowledgeStatusSchema }),
};
