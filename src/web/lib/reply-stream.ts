import { type chatsApi, type StreamEvent, streamEventSchema } from "../../shared/contracts/chat.js";
import type { EndpointInput } from "../../shared/contracts/endpoint.js";
import { ApiError, endpointUrl } from "./api-client.js";
import { readSseStream } from "./sse.js";

/** The server's `{ message }` of a refused request, kept with its status. */
async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  let body: { message?: unknown; errors?: Record<string, string> } = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object") body = parsed as typeof body;
  } catch {
    // Not JSON: the status line says it.
  }
  const message = typeof body.message === "string" && body.message ? body.message : `${response.status}: ${text || response.statusText}`;
  return new ApiError(response.status, message, { message, errors: body.errors });
}

/** The endpoints that answer with a reply stream (Server-Sent Events). */
export type ReplyStreamEndpoint =
  | typeof chatsApi.reply
  | typeof chatsApi.regenerate
  | typeof chatsApi.editMessage
  | typeof chatsApi.stream
  | typeof chatsApi.approveToolCall
  | typeof chatsApi.denyToolCall;

/**
 * Opens a reply stream (POST reply/regenerate/edit/approve/deny, or GET stream to resume).
 * Null when nothing is streaming (204). A refusal before the stream starts
 * throws ApiError with the server's message; an abort throws the AbortError.
 */
export async function openReplyStream<E extends ReplyStreamEndpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  signal: AbortSignal,
): Promise<Response | null> {
  const body = (input as { body?: unknown }).body;
  let response: Response;
  try {
    response = await fetch(endpointUrl(endpoint, input), {
      method: endpoint.method,
      credentials: "include",
      signal,
      headers: body === undefined ? { Accept: "text/event-stream" } : { Accept: "text/event-stream", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.", {});
  }
  if (response.status === 204) return null;
  if (!response.ok) throw await refusal(response);
  return response;
}

/** Hands each well-formed event of the stream to `onEvent`, in order, until the stream ends. */
export async function readReplyStream(response: Response, onEvent: (event: StreamEvent) => void): Promise<void> {
  if (!response.body) return;
  await readSseStream(response.body, (data) => {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const event = streamEventSchema.safeParse(json);
    if (event.success) onEvent(event.data);
  });
}
