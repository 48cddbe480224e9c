// The OpenAI Responses API (`POST /v1/responses`) in the OpenAI stand-in (openai-compatible-fake.ts routes it here):
// the wire format @ai-sdk/openai's `.responses()` model speaks. Input is a list of items (messages with `input_text`
// parts, `function_call` items and `function_call_output` items); a stream is named SSE events (response.created,
// response.output_item.added, response.output_text.delta, response.function_call_arguments.delta,
// response.output_item.done, response.completed with usage); a whole answer is one `response` object. What is
// answered is fake-behaviour.ts's plan, as for every stand-in; errors are OpenAI's own bodies (the caller's `fail`).
import type { ServerResponse } from "node:http";
import { type ChatTurn, deliver, type ErrorReason, planReply, type TextPlan, textOf } from "./fake-behaviour.js";
import { openEventStream, sendJson, writeEvent } from "./fake-server.js";
import type { FakeToolCall, ToolCallPlan } from "./fake-tools.js";

/** One item of a Responses request's `input`: a message (`role`), or a `function_call` / `function_call_output`. */
interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  output?: unknown;
}

export interface ResponsesRequest {
  model?: unknown;
  input?: InputItem[] | string;
  instructions?: unknown;
  stream?: boolean;
  text?: { format?: { type?: string; name?: string } };
  tools?: { type?: string; name?: string }[];
}

let nextId = 1;

/** The outputs of the `function_call_output` items the input ends with, as text (none: null). */
function trailingOutputs(items: InputItem[]): string[] | null {
  const results: string[] = [];
  for (let i = items.length - 1; i >= 0 && items[i]?.type === "function_call_output"; i--) results.unshift(textOf(items[i]?.output));
  return results.length > 0 ? results : null;
}

function usageOf(plan: TextPlan | ToolCallPlan) {
  return {
    input_tokens: plan.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: plan.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: plan.inputTokens + plan.outputTokens,
  };
}

/** Answers one `POST /responses`. */
export async function answerResponses(
  res: ServerResponse,
  request: ResponsesRequest,
  context: {
    keyProblem: "missing-key" | "wrong-key" | null;
    chunkDelayMs: number;
    firstChunkDelayMs: number;
    firstChunkWritten: () => void;
  },
  fail: (status: number, reason: ErrorReason) => void,
): Promise<void> {
  const items: InputItem[] = typeof request.input === "string" ? [{ role: "user", content: request.input }] : (request.input ?? []);
  const messages: ChatTurn[] = items
    .filter((item) => item.role !== undefined)
    .map((item) => ({ role: String(item.role), content: item.content }));
  const format = request.text?.format;
  const plan = planReply({
    model: request.model,
    system: request.instructions,
    messages,
    keyProblem: context.keyProblem,
    chunkDelayMs: context.chunkDelayMs,
    firstChunkDelayMs: context.firstChunkDelayMs,
    json: format?.type === "json_schema" || format?.type === "json_object",
    jsonName: format?.name,
    tools: (request.tools ?? []).filter((tool) => tool.type === "function").map((tool) => String(tool.name ?? "")),
    toolResults: trailingOutputs(items),
    toolIdPrefix: "call_",
  });
  const n = nextId++;
  const response = {
    id: `resp_fake${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: request.model,
    service_tier: "default",
  };
  const messageId = `msg_fake${n}`;
  const itemIdOf = (call: FakeToolCall) => `fc_${call.id}`;
  const callItem = (call: FakeToolCall, status: "in_progress" | "completed", args: string) => ({
    type: "function_call",
    id: itemIdOf(call),
    call_id: call.id,
    name: call.name,
    arguments: args,
    status,
  });
  const messageItem = (text: string, status: "in_progress" | "completed") => ({
    type: "message",
    id: messageId,
    status,
    role: "assistant",
    content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [], logprobs: [] }],
  });
  let sequence = 0;
  const event = (data: Record<string, unknown>) => writeEvent(res, { ...data, sequence_number: sequence++ }, String(data.type));
  const started = () => {
    openEventStream(res);
    event({ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } });
    event({ type: "response.in_progress", response: { ...response, status: "in_progress", output: [], usage: null } });
  };
  const completed = (output: unknown[], plan: TextPlan | ToolCallPlan) =>
    event({ type: "response.completed", response: { ...response, status: "completed", output, usage: usageOf(plan) } });

  let text = "";
  await deliver(res, plan, request.stream === true, {
    firstChunkWritten: context.firstChunkWritten,
    sendError: fail,
    sendWhole: (p) =>
      sendJson(res, 200, { ...response, status: "completed", output: [messageItem(p.text, "completed")], usage: usageOf(p) }),
    start: () => {
      started();
      event({ type: "response.output_item.added", output_index: 0, item: messageItem("", "in_progress") });
      event({
        type: "response.content_part.added",
        item_id: messageId,
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
    },
    delta: (piece) => {
      text += piece;
      event({ type: "response.output_text.delta", item_id: messageId, output_index: 0, content_index: 0, delta: piece, logprobs: [] });
    },
    finish: (p) => {
      event({ type: "response.output_text.done", item_id: messageId, output_index: 0, content_index: 0, text, logprobs: [] });
      event({ type: "response.output_item.done", output_index: 0, item: messageItem(text, "completed") });
      completed([messageItem(text, "completed")], p);
    },
    tools: {
      sendWhole: (p) =>
        sendJson(res, 200, {
          ...response,
          status: "completed",
          output: p.calls.map((call) => callItem(call, "completed", call.arguments)),
          usage: usageOf(p),
        }),
      start: () => started(),
      // A call's item is added with its first piece, and done once its arguments are all sent (before the next call's).
      piece: (index, call, piece, first) => {
        if (first) {
          const previous = index > 0 ? (plan as ToolCallPlan).calls[index - 1] : undefined;
          if (previous) callDone(index - 1, previous);
          event({ type: "response.output_item.added", output_index: index, item: callItem(call, "in_progress", "") });
        }
        event({ type: "response.function_call_arguments.delta", item_id: itemIdOf(call), output_index: index, delta: piece });
      },
      finish: (p) => {
        const last = p.calls.at(-1);
        if (last) callDone(p.calls.length - 1, last);
        completed(
          p.calls.map((call) => callItem(call, "completed", call.arguments)),
          p,
        );
      },
    },
  });

  function callDone(index: number, call: FakeToolCall) {
    event({ type: "response.function_call_arguments.done", item_id: itemIdOf(call), output_index: index, arguments: call.arguments });
    event({ type: "response.output_item.done", output_index: index, item: callItem(call, "completed", call.arguments) });
  }
}
