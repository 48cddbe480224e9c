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

/** A tool's `parameters` bounds: its JSON's length and how deep it nests. */
export const MAX_TOOL_PARAMETERS_CHARS = 32_000;
export const MAX_TOOL_PARAMETERS_DEPTH = 32;

/** The words of the endpoint's own refusals. */
export const OPENAI_MESSAGES = {
  tokenNeeded: "This endpoint needs a personal API token: send it as `Authorization: Bearer <token>` (Settings > Developer).",
  functionsRetired: "`functions` and `function_call` are OpenAI's retired form: send `tools` and `tool_choice` instead.",
  toolNameForm: "A tool's name is 1 to 64 letters, digits, underscores or dashes.",
  toolNameTwice: (name: string) => `The tool "${name}" is named twice in \`tools\`.`,
  toolParametersForm: 'A tool\'s `parameters` is a JSON Schema of `type: "object"`.',
  toolParametersTooBig: `A tool's \`parameters\` is at most ${MAX_TOOL_PARAMETERS_CHARS} characters of JSON, nested at most ${MAX_TOOL_PARAMETERS_DEPTH} deep.`,
  toolChoiceWithoutTools: "`tool_choice` is only allowed when `tools` are specified.",
  toolChoiceUnknown: (name: string) => `\`tool_choice\` names the tool "${name}", which is not in \`tools\`.`,
  contentNeeded: "`content` is required (an assistant message may leave it out when it has `tool_calls`).",
  toolCallsOnlyFromAssistant: "Only assistant messages may carry `tool_calls`.",
  toolCallIdTwice: (id: string) => `The tool call id "${id}" is used twice.`,
  toolCallIdNeeded: "A tool message needs the `tool_call_id` of the call it answers.",
  toolCallIdUnknown: (id: string) =>
    `\`tool_call_id\` "${id}" answers no tool call of the assistant message before it (or one already answered).`,
  toolCallsUnanswered: (ids: string[]) =>
    `An assistant message with \`tool_calls\` must be followed by tool messages answering each \`tool_call_id\`; not answered: ${ids.join(", ")}.`,
  onlyOneChoice: "Only n = 1 is supported on this endpoint.",
  noConversation: "`messages` needs at least one user or assistant message.",
  imageNotDataUrl: "Images are accepted as data: URLs (base64) only.",
  imageOnlyFromUser: "Only user messages may carry images.",
  unknownModel: (model: string) =>
    `The model "${model}" does not exist or you do not have access to it. GET /v1/models lists the models you may use.`,
  notAChatModel: (model: string) =>
    `The model "${model}" is an embedding model, not a chat model, so /v1/chat/completions does not take it: use it with /v1/embeddings.`,
  notAnEmbeddingModel: (model: string) =>
    `The model "${model}" is a chat model, not an embedding model, so /v1/embeddings does not take it: GET /v1/models lists the embedding model too.`,
  noEmbeddingModel: "No embedding model is set up on this server: an administrator chooses one under Admin > AI Chat Settings.",
  emptyInput: "`input` must not be empty.",
  dimensionsNotOffered: (model: string, dimensions: number) =>
    `The embedding model "${model}" cannot give vectors of ${dimensions} dimensions: send the request without \`dimensions\` for its own size.`,
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

/** A tool's name, as OpenAI takes it. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** The most tools one request may offer, as OpenAI. */
export const MAX_TOOLS = 128;

const toolNameSchema = z.string().regex(TOOL_NAME_PATTERN, OPENAI_MESSAGES.toolNameForm);

/** A call the model asked for, as an assistant message carries it back (and a whole answer gives it). */
export const toolCallSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.literal("function"),
  function: z.object({
    name: toolNameSchema,
    /** The arguments as the model wrote them: JSON text (usually an object). */
    arguments: z.string().max(1_000_000),
  }),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const chatCompletionMessageSchema = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"], {
    error: "`role` must be system, developer, user, assistant or tool",
  }),
  /** Required but on an assistant message with `tool_calls` (null or absent there). */
  content: contentSchema.nullable().optional(),
  name: z.string().max(100).optional(),
  /** An assistant message's calls (a turn the caller sends back, with their results in the tool messages after it). */
  tool_calls: z.array(toolCallSchema).max(MAX_TOOLS).nullable().optional(),
  /** A tool message: the call it answers. */
  tool_call_id: z.string().min(1).max(200).nullable().optional(),
});
export type ChatCompletionMessage = z.infer<typeof chatCompletionMessageSchema>;

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** A token count a request may name: positive, and far below anything that would overflow a column. */
const tokenCount = z.number().int().min(1).max(1_000_000);

/** A tool the caller offers the model (the caller runs it: the answer names the calls, decision 054). */
export const functionToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: toolNameSchema,
    description: optional(z.string().max(10_000)),
    /** A JSON Schema of `type: "object"` (absent: no arguments). */
    parameters: optional(z.record(z.string(), z.unknown())),
    strict: optional(z.boolean()),
  }),
});
export type FunctionTool = z.infer<typeof functionToolSchema>;

export const toolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.object({ type: z.literal("function"), function: z.object({ name: z.string().max(64) }) }),
]);
export type ToolChoice = z.infer<typeof toolChoiceSchema>;

/** How deep a JSON value nests (an object or array counts one level); stops counting past `limit`. */
export function depthOf(value: unknown, limit: number): number {
  if (limit < 0 || value === null || typeof value !== "object") return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner, limit - 1));
  return 1 + deepest;
}

/** The body's tools: each name once, `parameters` an object schema within bounds; `tool_choice` names one of them. */
function checkTools(body: { tools?: FunctionTool[] | null; tool_choice?: ToolChoice | null }, ctx: z.RefinementCtx) {
  const names = new Set<string>();
  (body.tools ?? []).forEach((tool, index) => {
    const path = ["tools", index, "function"];
    if (names.has(tool.function.name)) {
      ctx.addIssue({ code: "custom", path: [...path, "name"], message: OPENAI_MESSAGES.toolNameTwice(tool.function.name) });
    }
    names.add(tool.function.name);
    const parameters = tool.function.parameters;
    if (!parameters) return;
    if ("type" in parameters && parameters.type !== "object") {
      ctx.addIssue({ code: "custom", path: [...path, "parameters"], message: OPENAI_MESSAGES.toolParametersForm });
    } else if (
      // The depth first: JSON.stringify throws (a RangeError, a 500) on a value nested some thousands deep.
      depthOf(parameters, MAX_TOOL_PARAMETERS_DEPTH) > MAX_TOOL_PARAMETERS_DEPTH ||
      JSON.stringify(parameters).length > MAX_TOOL_PARAMETERS_CHARS
    ) {
      ctx.addIssue({ code: "custom", path: [...path, "parameters"], message: OPENAI_MESSAGES.toolParametersTooBig });
    }
  });
  const choice = body.tool_choice;
  if (choice == null) return;
  if (names.size === 0) ctx.addIssue({ code: "custom", path: ["tool_choice"], message: OPENAI_MESSAGES.toolChoiceWithoutTools });
  else if (typeof choice === "object" && !names.has(choice.function.name)) {
    ctx.addIssue({ code: "custom", path: ["tool_choice"], message: OPENAI_MESSAGES.toolChoiceUnknown(choice.function.name) });
  }
}

/**
 * The conversation's tool turns, as OpenAI checks them: `tool_calls` only on assistant messages, their ids unique;
 * each tool message answers a call of the assistant message before it (once); and every call is answered before the
 * conversation goes on.
 */
function checkToolTurns(messages: ChatCompletionMessage[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  let open = new Map<string, number>();
  const closeOpen = () => {
    const [first] = open.values();
    if (first !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["messages", first, "tool_calls"],
        message: OPENAI_MESSAGES.toolCallsUnanswered([...open.keys()]),
      });
    }
    open = new Map();
  };
  messages.forEach((message, index) => {
    const path = ["messages", index];
    if (message.role === "tool") {
      const id = message.tool_call_id;
      if (!id) ctx.addIssue({ code: "custom", path: [...path, "tool_call_id"], message: OPENAI_MESSAGES.toolCallIdNeeded });
      else if (!open.delete(id))
        ctx.addIssue({ code: "custom", path: [...path, "tool_call_id"], message: OPENAI_MESSAGES.toolCallIdUnknown(id) });
      return;
    }
    closeOpen();
    const calls = message.tool_calls ?? [];
    if (calls.length && message.role !== "assistant") {
      ctx.addIssue({ code: "custom", path: [...path, "tool_calls"], message: OPENAI_MESSAGES.toolCallsOnlyFromAssistant });
      return;
    }
    calls.forEach((call, at) => {
      if (seen.has(call.id)) {
        ctx.addIssue({ code: "custom", path: [...path, "tool_calls", at, "id"], message: OPENAI_MESSAGES.toolCallIdTwice(call.id) });
      }
      seen.add(call.id);
      open.set(call.id, index);
    });
  });
  closeOpen();
}

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
    /** The caller's tools (decision 054): the model may call them; the caller runs them and sends the results back. */
    tools: optional(z.array(functionToolSchema).max(MAX_TOOLS)),
    tool_choice: optional(toolChoiceSchema),
    parallel_tool_calls: optional(z.boolean()),
    functions: optional(z.array(z.unknown())),
    function_call: optional(z.unknown()),
  })
  .superRefine((body, ctx) => {
    if (body.functions != null || body.function_call != null) {
      ctx.addIssue({
        code: "custom",
        path: [body.functions != null ? "functions" : "function_call"],
        message: OPENAI_MESSAGES.functionsRetired,
      });
    }
    checkTools(body, ctx);
    if (body.n && body.n !== 1) ctx.addIssue({ code: "custom", path: ["n"], message: OPENAI_MESSAGES.onlyOneChoice });
    if (!body.messages.some((message) => message.role === "user" || message.role === "assistant")) {
      ctx.addIssue({ code: "custom", path: ["messages"], message: OPENAI_MESSAGES.noConversation });
    }
    body.messages.forEach((message, index) => {
      if (message.content == null) {
        if (message.role !== "assistant" || !message.tool_calls?.length) {
          ctx.addIssue({ code: "custom", path: ["messages", index, "content"], message: OPENAI_MESSAGES.contentNeeded });
        }
        return;
      }
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
    checkToolTurns(body.messages, ctx);
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
      message: z.object({
        role: z.literal("assistant"),
        /** null when the answer is only tool calls. */
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(toolCallSchema).optional(),
      }),
      logprobs: z.null(),
      finish_reason: finishReasonSchema,
    }),
  ),
  usage: completionUsageSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** A streamed tool call's piece: the first names it; the next ones carry pieces of its arguments, by `index`. */
export const toolCallDeltaSchema = z.object({
  index: z.number().int(),
  id: z.string().optional(),
  type: z.literal("function").optional(),
  function: z.object({ name: z.string().optional(), arguments: z.string().optional() }),
});
export type ToolCallDelta = z.infer<typeof toolCallDeltaSchema>;

/** One Server-Sent Event of a streamed answer (`object: "chat.completion.chunk"`); the stream ends with `data: [DONE]`. */
export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        role: z.literal("assistant").optional(),
        content: z.string().nullable().optional(),
        /** A call begins (`index`, `id`, `type`, `function.name`, empty arguments), then pieces of its `function.arguments`. */
        tool_calls: z.array(toolCallDeltaSchema).optional(),
      }),
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
