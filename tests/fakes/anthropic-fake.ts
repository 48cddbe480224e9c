// Stand-in for the Anthropic Messages API (`POST /v1/messages`), in the shapes @ai-sdk/anthropic parses:
// named SSE events message_start → content_block_start → ping → content_block_delta… → content_block_stop
// → message_delta (stop_reason, output usage) → message_stop, and `{type:"error", error:{type, message}}` bodies.
import { type ChatTurn, deliver, type ErrorReason, planReply, textOf } from "./fake-behaviour.js";
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

export { DEFAULT_API_KEY, type FakeProvider, type RecordedRequest } from "./fake-server.js";

export interface AnthropicFakeOptions extends FakeOptions {
  /** Ids listed by `GET /models`. */
  models?: string[];
}

interface MessagesRequest {
  model?: unknown;
  system?: unknown;
  messages?: ChatTurn[];
  stream?: boolean;
  tools?: { name?: string }[];
}

/** The tool results the conversation ends with (a user message of `tool_result` parts), or null. */
function trailingToolResults(messages: ChatTurn[]): string[] | null {
  const last = messages.at(-1);
  if (last?.role !== "user" || !Array.isArray(last.content)) return null;
  const results = (last.content as { type?: string; content?: unknown }[]).filter((part) => part?.type === "tool_result");
  return results.length > 0 ? results.map((part) => textOf(part.content)) : null;
}

const DEFAULT_MODELS = ["claude-sonnet-4-5", "claude-haiku-4-5"];

let nextId = 1;

export function startAnthropicFake(options: AnthropicFakeOptions = {}): Promise<FakeProvider> {
  return startFakeServer(options, async ({ req, res, route, body, apiKey, chunkDelayMs, firstChunkDelayMs, firstChunkWritten }) => {
    const request = (body && typeof body === "object" ? body : {}) as MessagesRequest;
    const problem = keyProblem(apiKey, presentedKey(req.headers));
    const fail = (status: number, reason: ErrorReason | "missing-version") => {
      const [type, message] = describeError(status, reason, request.model);
      sendJson(
        res,
        status,
        { type: "error", error: { type, message }, request_id: `req_fake${nextId++}` },
        status === 429 ? { "retry-after": "1" } : {},
      );
    };

    if (problem) return fail(401, problem);
    if (req.method === "GET" && route === "/models") {
      const data = (options.models ?? DEFAULT_MODELS).map((id) => ({
        type: "model",
        id,
        display_name: id,
        created_at: "2025-01-01T00:00:00Z",
      }));
      return sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }
    if (req.method !== "POST" || route !== "/messages") return fail(404, "unknown-route");
    // The real API refuses requests without a version header; a client that forgets it should fail here too.
    if (!req.headers["anthropic-version"]) return fail(400, "missing-version");

    const messages = Array.isArray(request.messages) ? request.messages : [];
    const plan = planReply({
      model: request.model,
      system: request.system,
      messages,
      keyProblem: null,
      chunkDelayMs,
      firstChunkDelayMs,
      tools: (Array.isArray(request.tools) ? request.tools : []).map((tool) => String(tool.name ?? "")),
      toolResults: trailingToolResults(messages),
      toolIdPrefix: "toolu_fake",
    });
    const id = `msg_fake${nextId++}`;
    const message = { id, type: "message", role: "assistant", model: request.model, stop_sequence: null };
    const event = (data: { type: string; [field: string]: unknown }) => writeEvent(res, data, data.type);
    const whole = (content: object[], stopReason: string, p: { inputTokens: number; outputTokens: number }) =>
      sendJson(res, 200, {
        ...message,
        content,
        stop_reason: stopReason,
        usage: { input_tokens: p.inputTokens, output_tokens: p.outputTokens },
      });
    // Input tokens are known up front and sent in message_start; output tokens only at the end, in message_delta.
    const messageStart = (inputTokens: number) => {
      openEventStream(res);
      event({
        type: "message_start",
        message: { ...message, content: [], stop_reason: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
      });
    };

    await deliver(res, plan, request.stream === true, {
      firstChunkWritten,
      tools: {
        sendWhole: (p) =>
          whole(
            p.calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: inputOf(call.arguments) })),
            "tool_use",
            p,
          ),
        start: (p) => messageStart(p.inputTokens),
        // Each call is a content block of its own: opened with its id and name, its input streamed as JSON pieces.
        piece: (index, call, piece, first) => {
          if (first) {
            if (index > 0) event({ type: "content_block_stop", index: index - 1 });
            event({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
          }
          event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
        },
        finish: (p) => {
          event({ type: "content_block_stop", index: p.calls.length - 1 });
          event({
            type: "message_delta",
            delta: { stop_reason: "tool_use", stop_sequence: null },
            usage: { output_tokens: p.outputTokens },
          });
          event({ type: "message_stop" });
        },
      },
      sendError: fail,
      sendWhole: (p) => whole([{ type: "text", text: p.text }], "end_turn", p),
      start: (p) => {
        messageStart(p.inputTokens);
        event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
        event({ type: "ping" });
      },
      delta: (piece) => event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } }),
      finish: (p) => {
        event({ type: "content_block_stop", index: 0 });
        event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: p.outputTokens } });
        event({ type: "message_stop" });
      },
    });
  });
}

/** [error type, message] as Anthropic sends them for each status. */
function describeError(status: number, reason: ErrorReason | "missing-version", model: unknown): [string, string] {
  if (reason === "missing-key") return ["authentication_error", "x-api-key header is required"];
  if (reason === "missing-version") return ["invalid_request_error", "anthropic-version: header is required"];
  if (reason === "unknown-route") return ["not_found_error", "Not Found"];
  switch (status) {
    case 400:
      return ["invalid_request_error", "Invalid request (fake #error=400)."];
    case 401:
      return ["authentication_error", "invalid x-api-key"];
    case 403:
      return ["permission_error", "Your API key does not have permission to use the specified resource."];
    case 404:
      return ["not_found_error", `model: ${String(model)}`];
    case 413:
      return ["request_too_large", "Request exceeds the maximum allowed number of bytes."];
    case 429:
      return ["rate_limit_error", "Number of requests has exceeded your per-minute rate limit."];
    case 500:
      return ["api_error", "Internal server error"];
    case 503:
    case 529:
      return ["overloaded_error", "Overloaded"];
    default:
      return ["api_error", `Fake provider error ${status}.`];
  }
}

/** A whole tool_use block carries its input as an object; arguments the fake was told to break become `{}`. */
function inputOf(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}
