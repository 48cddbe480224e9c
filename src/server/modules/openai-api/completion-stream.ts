import type { FastifyReply, FastifyRequest } from "fastify";
import type { ChatCompletionChunk } from "../../../shared/contracts/openai.js";
import { AppError } from "../../lib/app-error.js";
import { EVENT_STREAM_HEADERS } from "../../lib/event-stream-headers.js";
import { openAiErrorBody } from "../../lib/openai-error.js";
import type { AdmittedCompletion, AnswerPiece } from "./completions-service.js";

const PROVIDER_STOPPED = "The AI provider stopped answering unexpectedly. Please try again.";

/**
 * `stream: true`: OpenAI's Server-Sent Events. The first output (text, or a tool call begun) is awaited before anything
 * is written, so a failure before the answer begins (the provider refused, timed out) is still an HTTP error in
 * OpenAI's shape; then one `chat.completion.chunk` per piece (the first with the role): text as `delta.content`, a tool
 * call as `delta.tool_calls` (its `index`, `id`, `type` and `function.name` first, then pieces of `function.arguments`,
 * decision 054), the last with its `finish_reason`, the usage chunk
 * when `stream_options.include_usage` asked for it, and `data: [DONE]`. A failure after the first piece is written as
 * OpenAI does, a `data:` line with `{ error }` (the clients raise it), and the stream ends. A client that leaves
 * aborts the provider's call; the hold is settled either way (`answer`'s end).
 */
export async function streamCompletionChunks(
  request: FastifyRequest,
  reply: FastifyReply,
  admitted: AdmittedCompletion,
  options: { includeUsage: boolean; abort: AbortController },
): Promise<void> {
  const parts = admitted.answer(options.abort.signal);
  const first = await parts.next();
  const checkEvent = request.routeOptions.config.checkEvent;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, EVENT_STREAM_HEADERS);
  const usage = options.includeUsage ? { usage: null } : {};
  const chunk = (choices: ChatCompletionChunk["choices"], extra: Pick<ChatCompletionChunk, "usage"> = usage): ChatCompletionChunk => ({
    id: admitted.id,
    object: "chat.completion.chunk",
    created: admitted.created,
    model: admitted.model,
    choices,
    ...extra,
  });
  /** A piece as OpenAI's delta; the first carries the role (and `content: null` when it is a tool call, as OpenAI's). */
  const delta = (piece: AnswerPiece | null, first = false) => {
    let body: ChatCompletionChunk["choices"][number]["delta"];
    if (!piece || piece.type === "text") body = { content: piece?.text ?? "" };
    else if (piece.type === "call") {
      const call = { index: piece.index, id: piece.id, type: "function" as const, function: { name: piece.name, arguments: "" } };
      body = { ...(first ? { content: null } : {}), tool_calls: [call] };
    } else body = { tool_calls: [{ index: piece.index, function: { arguments: piece.text } }] };
    return chunk([{ index: 0, delta: first ? { role: "assistant", ...body } : body, logprobs: null, finish_reason: null }]);
  };
  const send = (event: ChatCompletionChunk): boolean => {
    if (res.destroyed || res.writableEnded) return false;
    // CHECK_RESPONSES (tests): a chunk outside the contract is not sent; the stream ends with an error naming it.
    const drift = checkEvent?.(event);
    if (drift) throw new Error(drift);
    res.write(`data: ${JSON.stringify(event)}\n\n`);
    return true;
  };
  try {
    if (!send(delta(first.done ? null : first.value, true))) return;
    let next = first;
    while (!next.done) {
      next = await parts.next();
      if (!next.done && !send(delta(next.value))) return;
    }
    send(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: next.value.finishReason }]));
    if (options.includeUsage) send(chunk([], { usage: next.value.usage }));
    if (!res.destroyed) res.write("data: [DONE]\n\n");
  } catch (error) {
    const status = error instanceof AppError ? error.statusCode : 500;
    const message = error instanceof AppError ? error.message : PROVIDER_STOPPED;
    if (!(error instanceof AppError)) request.log.error({ err: error }, "chat completion stream failed");
    if (!res.destroyed && !res.writableEnded) res.write(`data: ${JSON.stringify(openAiErrorBody(status, message))}\n\n`);
  } finally {
    // Left early (the client went, a write failed): the answer's end settles its hold.
    await parts.return(undefined as never).catch(() => {});
    if (!res.writableEnded) res.end();
  }
}
