// Stand-in for the OpenAI Chat Completions API, which Deepseek, Mistral and OpenAI-compatible servers also speak.
// Shapes follow what @ai-sdk/openai (.chat), @ai-sdk/deepseek, @ai-sdk/mistral and @ai-sdk/openai-compatible parse.
// It also answers OpenAI's Responses API (`POST /responses`, what @ai-sdk/openai's `.responses()` speaks):
// openai-responses-fake.ts.
import { type ChatTurn, deliver, type ErrorReason, planReply, type TextPlan, textOf } from "./fake-behaviour.js";
import { answerEmbeddings, type EmbeddingRequest } from "./fake-embeddings.js";
import {
  type FakeOptions,
  type FakeProvider,
  keyProblem,
  openEventStream,
  presentedKey,
  sendJson,
  startFakeServer,
  writeEvent,
} from "./fake-server.js";
import type { ToolCallPlan } from "./fake-tools.js";
import { answerResponses, type ResponsesRequest } from "./openai-responses-fake.js";

export { DEFAULT_API_KEY, type FakeProvider, type RecordedRequest } from "./fake-server.js";

export interface OpenAiCompatibleFakeOptions extends FakeOptions {
  /** Ids listed by `GET /models`. */
  models?: string[];
  /**
   * Error body shape. Unset: chosen per request, Mistral's flat `{object:"error", message, type, param, code}` when the
   * caller's user-agent is @ai-sdk/mistral (its SDK rejects OpenAI's nested shape), OpenAI's `{error:{...}}` otherwise.
   */
  errorFormat?: "openai" | "mistral";
  /**
   * false: a server without structured outputs, which refuses a `json_schema` response format with a 400 in OpenAI's
   * words (JSON mode, `json_object`, still works). Default true: the schema is taken and the answer fits it.
   */
  structuredOutputs?: boolean;
}

interface ChatRequest {
  model?: unknown;
  messages?: ChatTurn[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: unknown;
  tools?: { type?: string; function?: { name?: string } }[];
}

/** The results of the tool messages the conversation ends with (role `tool`), or null. */
function trailingToolResults(messages: ChatTurn[]): string[] | null {
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) results.unshift(textOf(messages[i]?.content));
  return results.length > 0 ? results : null;
}

const DEFAULT_MODELS = ["gpt-4o-mini", "gpt-4o", "deepseek-chat", "mistral-small-latest"];

let nextId = 1;

export function startOpenAiCompatibleFake(options: OpenAiCompatibleFakeOptions = {}): Promise<FakeProvider> {
  return startFakeServer(options, async ({ req, res, route, body, apiKey, chunkDelayMs, firstChunkDelayMs, firstChunkWritten }) => {
    const format = options.errorFormat ?? (String(req.headers["user-agent"]).includes("ai-sdk-mistral") ? "mistral" : "openai");
    const presented = presentedKey(req.headers);
    const problem = keyProblem(apiKey, presented);
    const request = (body && typeof body === "object" ? body : {}) as ChatRequest;
    const fail = (status: number, reason: ErrorReason) => {
      const error = describeError(status, reason, { model: request.model, key: presented, route: `${req.method} ${req.url}` });
      const payload = format === "mistral" ? { object: "error", ...error } : { error };
      // Real 429s carry retry-after; the SDK's retry logic reads it.
      sendJson(res, status, payload, status === 429 ? { "retry-after": "1" } : {});
    };

    if (req.method === "GET" && route === "/models") {
      if (problem) return fail(401, problem);
      const data = (options.models ?? DEFAULT_MODELS).map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" }));
      return sendJson(res, 200, { object: "list", data });
    }
    if (req.method === "POST" && route === "/embeddings") {
      if (problem) return fail(401, problem);
      const answer = answerEmbeddings(request as EmbeddingRequest);
      if (answer.ok) return sendJson(res, 200, answer.body);
      if (answer.reason === "bad-input") {
        const error = fields(INVALID, null, answer.message ?? "Invalid input.");
        // Mistral's embedding calls carry no user-agent of their own; `output_dimension` is Mistral's field alone.
        const mistral = format === "mistral" || (request as EmbeddingRequest).output_dimension !== undefined;
        return sendJson(res, 400, mistral ? { object: "error", ...error } : { error });
      }
      return fail(answer.status, answer.reason);
    }
    if (req.method === "POST" && route === "/responses") {
      const context = { keyProblem: problem, chunkDelayMs, firstChunkDelayMs, firstChunkWritten };
      return answerResponses(res, request as ResponsesRequest, context, fail);
    }
    if (req.method !== "POST" || route !== "/chat/completions") return fail(404, "unknown-route");

    const messages = Array.isArray(request.messages) ? request.messages : [];
    if (options.structuredOutputs === false && jsonSchemaName(request.response_format) !== undefined && !problem) {
      const message = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.";
      return sendJson(res, 400, { error: { ...fields(INVALID, null, message), param: "response_format" } });
    }
    const plan = planReply({
      model: request.model,
      messages,
      keyProblem: problem,
      chunkDelayMs,
      firstChunkDelayMs,
      json: Boolean(request.response_format),
      jsonName: jsonSchemaName(request.response_format),
      tools: (Array.isArray(request.tools) ? request.tools : []).map((tool) => String(tool.function?.name ?? "")),
      toolResults: trailingToolResults(messages),
      toolIdPrefix: "call_",
    });
    // OpenAI and Deepseek ask for usage in a final empty-choices chunk; Mistral never asks (and its SDK crashes on
    // an empty `choices`), it gets usage on the finish chunk instead, as the real Mistral API sends it.
    const separateUsage = request.stream_options?.include_usage === true;
    const common = {
      id: `chatcmpl-fake${nextId++}`,
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      system_fingerprint: "fp_fake",
    };
    const chunk = { ...common, object: "chat.completion.chunk", ...(separateUsage ? { usage: null } : {}) };

    const toolCallsOf = (p: ToolCallPlan) =>
      p.calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
    await deliver(res, plan, request.stream === true, {
      firstChunkWritten,
      tools: {
        sendWhole: (p) =>
          sendJson(res, 200, {
            ...common,
            object: "chat.completion",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: null, tool_calls: toolCallsOf(p), refusal: null },
                logprobs: null,
                finish_reason: "tool_calls",
              },
            ],
            usage: usageOf(p),
          }),
        start: () => openEventStream(res),
        // The first piece of a call names it (index, id, name); later ones carry only more of its arguments.
        piece: (index, call, piece, first) =>
          writeEvent(res, {
            ...chunk,
            choices: [
              {
                index: 0,
                delta: first
                  ? {
                      ...(index === 0 ? { role: "assistant", content: null } : {}),
                      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: piece } }],
                    }
                  : { tool_calls: [{ index, function: { arguments: piece } }] },
                logprobs: null,
                finish_reason: null,
              },
            ],
          }),
        finish: (p) => {
          const stop = { index: 0, delta: {}, logprobs: null, finish_reason: "tool_calls" };
          writeEvent(res, { ...chunk, choices: [stop], ...(separateUsage ? {} : { usage: usageOf(p) }) });
          if (separateUsage) writeEvent(res, { ...chunk, choices: [], usage: usageOf(p) });
          writeEvent(res, "[DONE]");
        },
      },
      sendError: fail,
      sendWhole: (p) =>
        sendJson(res, 200, {
          ...common,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: p.text, refusal: null }, logprobs: null, finish_reason: "stop" }],
          usage: usageOf(p),
        }),
      start: () => openEventStream(res),
      // The role rides on the first content chunk (no empty role-only chunk) so #hang's single chunk already carries text.
      delta: (piece, index) =>
        writeEvent(res, {
          ...chunk,
          choices: [
            {
              index: 0,
              delta: index === 0 ? { role: "assistant", content: piece } : { content: piece },
              logprobs: null,
              finish_reason: null,
            },
          ],
        }),
      finish: (p) => {
        const stop = { index: 0, delta: {}, logprobs: null, finish_reason: "stop" };
        writeEvent(res, { ...chunk, choices: [stop], ...(separateUsage ? {} : { usage: usageOf(p) }) });
        if (separateUsage) writeEvent(res, { ...chunk, choices: [], usage: usageOf(p) });
        writeEvent(res, "[DONE]");
      },
    });
  });
}

function usageOf(plan: TextPlan | ToolCallPlan) {
  return { prompt_tokens: plan.inputTokens, completion_tokens: plan.outputTokens, total_tokens: plan.inputTokens + plan.outputTokens };
}

interface ErrorFields {
  message: string;
  type: string;
  param: null;
  code: string | null;
}

/** The messages and types OpenAI really sends, so the app's error mapping is tested against familiar text. */
function describeError(status: number, reason: ErrorReason, at: { model: unknown; key: string | undefined; route: string }): ErrorFields {
  if (reason === "missing-key" || (reason === "directive" && status === 401 && !at.key)) {
    return fields(
      INVALID,
      null,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
    );
  }
  if (status === 401) {
    const message = `Incorrect API key provided: ${mask(at.key ?? "")}. You can find your API key at https://platform.openai.com/account/api-keys.`;
    return fields(INVALID, "invalid_api_key", message);
  }
  if (reason === "unknown-route") return fields(INVALID, null, `Invalid URL (${at.route})`);
  if (status === 404)
    return fields(INVALID, "model_not_found", `The model \`${String(at.model)}\` does not exist or you do not have access to it.`);
  if (status === 429) return fields("requests", "rate_limit_exceeded", "Rate limit reached for requests. Please try again in 1s.");
  if (status === 400) return fields(INVALID, null, "Invalid request (fake #error=400).");
  if (status === 403) return fields(INVALID, "model_not_allowed", "You are not allowed to sample from this model.");
  if (status === 500) return fields("server_error", null, "The server had an error while processing your request. Sorry about that!");
  if (status === 502 || status === 503) return fields("server_error", null, "The server is overloaded or not ready yet.");
  return fields("api_error", null, `Fake provider error ${status}.`);
}

const INVALID = "invalid_request_error";

function fields(type: string, code: string | null, message: string): ErrorFields {
  return { message, type, param: null, code };
}

/** OpenAI echoes only the ends of a wrong key; never the whole key, even in a fake. */
function mask(key: string): string {
  return key.length > 8 ? `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}` : "***";
}

/** The name of a `json_schema` response format, if the request gave one. */
function jsonSchemaName(format: unknown): string | undefined {
  if (!format || typeof format !== "object" || !("json_schema" in format)) return undefined;
  const schema = format.json_schema;
  return schema && typeof schema === "object" && "name" in schema && typeof schema.name === "string" ? schema.name : "response";
}
