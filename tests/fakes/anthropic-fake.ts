// Stand-in for the Anthropic Messages API (`POST /v1/messages`), in the shapes @ai-sdk/anthropic parses:
// named SSE events message_start → content_block_start → ping → content_block_delta… → content_block_stop
// → message_delta (stop_reason, output usage) → message_stop, and `{type:"error", error:{type, message}}` bodies.
import { type ChatTurn, deliver, type ErrorReason, planReply } from "./fake-behaviour.js";
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

    const plan = planReply({
      model: request.model,
      system: request.system,
      messages: Array.isArray(request.messages) ? request.messages : [],
      keyProblem: null,
      chunkDelayMs,
      firstChunkDelayMs,
    });
    const id = `msg_fake${nextId++}`;
    const message = { id, type: "message", role: "assistant", model: request.model, stop_sequence: null };
    const event = (data: { type: string; [field: string]: unknown }) => writeEvent(res, data, data.type);

    await deliver(res, plan, request.stream === true, {
      firstChunkWritten,
      sendError: fail,
      sendWhole: (p) =>
        sendJson(res, 200, {
          ...message,
          content: [{ type: "text", text: p.text }],
          stop_reason: "end_turn",
          usage: { input_tokens: p.inputTokens, output_tokens: p.outputTokens },
        }),
      // Input tokens are known up front and sent in message_start; output tokens only at the end, in message_delta.
      start: (p) => {
        openEventStream(res);
        event({
          type: "message_start",
          message: { ...message, content: [], stop_reason: null, usage: { input_tokens: p.inputTokens, output_tokens: 1 } },
        });
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
