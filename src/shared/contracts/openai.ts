import { z } from "zod";
import { endpoint } from "./endpoint.js";

/**
 * The OpenAI-compatible endpoints (issue 35, decision 051): `GET /v1/models`, `POST /v1/chat/completions` (whole or
 * streamed) and `POST /v1/embeddings`, in OpenAI's wire format, for scripts and tools that speak it (the official
 * `openai` clients, LangChain...). Only a personal API token calls them (`access: "token"`); failures are written in
 * OpenAI's shape (`errorFormat: "openai"`). Keys OpenAI defines that are not named here are ignored, as OpenAI does;
 * a named key of the wrong type is a 400.
 */

/** What a failure answers on `/v1`: OpenAI's error object. */
export const openAiErrorBodySchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiErrorBody = z.infer<typeof openAiErrorBodySchema>;

/** The words of the endpoint's own refusals. */
export const OPENAI_MESSAGES = {
  tokenNeeded: "This endpoint needs a personal API token: send it as `Authorization: Bearer <token>` (Settings > Developer).",
  toolsNotSupported: "Tools (function calling) are not supported on this endpoint yet: send the request without `tools`.",
  onlyOneChoice: "Only n = 1 is supported on this endpoint.",
  noConversation: "`messages` needs at least one user or assistant message.",
  imageNotDataUrl: "Images are accepted as data: URLs (base64) only.",
  imageOnlyFromUser: "Only user messages may carry images.",
  unknownModel: (model: string) =>
    `The model "${model}" does not exist or you do not have access to it. GET /v1/models lists the models you may use.`,
  noEmbeddingModel: "No embedding model is set up on this server: an administrator chooses one under Admin > AI Chat Settings.",
  emptyInput: "`input` must not be empty.",
} as const;

const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });
const imagePartSchema = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string().max(2_000_000), detail: z.enum(["auto", "low", "high"]).optional() }),
});
const contentSchema = z.union([
  z.string(),
  z
    .array(z.discriminatedUnion("type", [textPartSchema, imagePartSchema]))
    .min(1)
    .max(100),
]);

export const chatCompletionMessageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant"], {
    error: "`role` must be system, developer, user or assistant (tool messages need tools, which are not supported here)",
  }),
  content: contentSchema,
  name: z.string().max(100).optional(),
});
export type ChatCompletionMessage = z.infer<typeof chatCompletionMessageSchema>;

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** A token count a request may name: positive, and far below anything that would overflow a column. */
const tokenCount = z.number().int().min(1).max(1_000_000);

export const chatCompletionBodySchema = z
  .object({
    /** `platform-slug/model`, as GET /v1/models lists them. */
    model: z.string().min(1).max(300),
    messages: z.array(chatCompletionMessageSchema).min(1).max(1000),
    temperature: optional(z.number().min(0).max(2)),
    max_tokens: optional(tokenCount),
    max_completion_tokens: optional(tokenCount),
    stop: optional(z.union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).max(4)])),
    stream: optional(z.boolean()),
    stream_options: optional(z.object({ include_usage: z.boolean().optional() })),
    n: optional(z.number().int().min(1).max(128)),
    tools: optional(z.array(z.unknown())),
    functions: optional(z.array(z.unknown())),
  })
  .superRefine((body, ctx) => {
    if (body.tools?.length || body.functions?.length) {
      ctx.addIssue({ code: "custom", path: [body.tools?.length ? "tools" : "functions"], message: OPENAI_MESSAGES.toolsNotSupported });
    }
    if (body.n && body.n !== 1) ctx.addIssue({ code: "custom", path: ["n"], message: OPENAI_MESSAGES.onlyOneChoice });
    if (!body.messages.some((message) => message.role === "user" || message.role === "assistant")) {
      ctx.addIssue({ code: "custom", path: ["messages"], message: OPENAI_MESSAGES.noConversation });
    }
    body.messages.forEach((message, index) => {
      if (typeof message.content === "string") return;
      message.content.forEach((part, at) => {
        if (part.type !== "image_url") return;
        const path = ["messages", index, "content", at, "image_url"];
        if (message.role !== "user") ctx.addIssue({ code: "custom", path, message: OPENAI_MESSAGES.imageOnlyFromUser });
        else if (!/^data:image\/[a-z0-9.+-]+;base64,/i.test(part.image_url.url)) {
          ctx.addIssue({ code: "custom", path, message: OPENAI_MESSAGES.imageNotDataUrl });
        }
      });
    });
  });
export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;

export const FINISH_REASONS = ["stop", "length", "content_filter", "tool_calls"] as const;
const finishReasonSchema = z.enum(FINISH_REASONS);

export const completionUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** A whole answer (`object: "chat.completion"`). */
export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: finishReasonSchema,
    }),
  ),
  usage: completionUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** One Server-Sent Event of a streamed answer (`object: "chat.completion.chunk"`); the stream ends with `data: [DONE]`. */
export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: finishReasonSchema.nullable(),
    }),
  ),
  /** With `stream_options.include_usage`: null on every chunk but the last, which has no choices and the usage. */
  usage: completionUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

export const modelObjectSchema = z.object({
  /** `platform-slug/model`. */
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  /** The platform's slug. */
  owned_by: z.string(),
});
export const modelListSchema = z.object({ object: z.literal("list"), data: z.array(modelObjectSchema) });
export type ModelList = z.infer<typeof modelListSchema>;

export const embeddingsBodySchema = z.object({
  /** The embedding model set up by an administrator, `platform-slug/model` (GET /v1/models lists it). */
  model: z.string().min(1).max(300),
  input: z.union([z.string().min(1, OPENAI_MESSAGES.emptyInput), z.array(z.string().min(1, OPENAI_MESSAGES.emptyInput)).min(1).max(2048)]),
  encoding_format: optional(z.enum(["float", "base64"])),
  dimensions: optional(z.number().int().min(1).max(8192)),
  user: optional(z.string().max(200)),
});
export type EmbeddingsBody = z.infer<typeof embeddingsBodySchema>;

export const embeddingListSchema = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      object: z.literal("embedding"),
      index: z.number().int(),
      /** Numbers, or with `encoding_format: "base64"` the little-endian float32 bytes in base64. */
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});
export type EmbeddingList = z.infer<typeof embeddingListSchema>;

/** Where the OpenAI-compatible endpoints live: an OpenAI client's base URL is the app's origin and this. */
export const OPENAI_BASE_PATH = "/v1";

const openAi = { access: "token", errorFormat: "openai" } as const;

export const openAiApi = {
  /** The models this token's user may use now: the chat's platforms and models (plan, switches), and the embedding model. */
  models: endpoint({
    method: "GET",
    path: `${OPENAI_BASE_PATH}/models` as const,
    ...openAi,
    tokenScope: "models",
    response: modelListSchema,
  }),
  /** A chat answer, whole (`chat.completion`) or streamed (`stream: true`: `chat.completion.chunk` events, then `[DONE]`). */
  chatCompletions: endpoint({
    method: "POST",
    path: `${OPENAI_BASE_PATH}/chat/completions` as const,
    ...openAi,
    tokenScope: "chat",
    body: chatCompletionBodySchema,
    response: chatCompletionSchema,
    streamResponse: chatCompletionChunkSchema,
  }),
  /** Vectors of texts, from the embedding model an administrator set up (404 when none is). */
  embeddings: endpoint({
    method: "POST",
    path: `${OPENAI_BASE_PATH}/embeddings` as const,
    ...openAi,
    tokenScope: "chat",
    body: embeddingsBodySchema,
    response: embeddingListSchema,
  }),
};
