import type { FastifyReply, FastifyRequest } from "fastify";
import type { Message, StreamEvent } from "../../../shared/contracts/chat.js";
import { EVENT_STREAM_HEADERS } from "../../lib/event-stream-headers.js";
import { readsLibrary } from "../../lib/library-access.js";
import { callWithoutPassages, toToolCall, withoutPassages } from "./chat-view.js";
import type { GenerationManager, LiveGeneration } from "./generation/generation-manager.js";
import type { MirrorEvent } from "./generation/generation-mirror.js";
import type { StartedReply } from "./reply-service.js";

export interface EventStream {
  send(event: StreamEvent): void;
  end(): void;
  readonly closed: boolean;
  onClose(callback: () => void): void;
}

/** An event as a caller who may not reach the library sees it: its messages and calls without passages (decision 056). */
function eventWithoutPassages(event: StreamEvent): StreamEvent {
  switch (event.type) {
    case "start":
      return {
        ...event,
        userMessage: event.userMessage && withoutPassages(event.userMessage),
        assistantMessage: withoutPassages(event.assistantMessage),
      };
    case "snapshot":
      return { ...event, assistantMessage: withoutPassages(event.assistantMessage) };
    case "tool":
      return { ...event, toolCall: callWithoutPassages(event.toolCall) };
    case "done":
      return {
        ...event,
        assistantMessage: withoutPassages(event.assistantMessage),
        after: event.after && { ...event.after, shown: event.after.shown.map(withoutPassages) },
      };
    default:
      return event;
  }
}

/**
 * Server-Sent Events over the response of a POST or GET; comments every 15 s keep proxies from closing it. A token
 * without files:read gets its events without the passages of the user's files (decision 056). Under
 * CHECK_RESPONSES (tests) each event is checked against the route's contract before it is written (`checkEvent`, set
 * by `route()`): one that drifts is not sent; the stream ends with an `error` event naming the drift (status 500)
 * and the drift is logged, so the test reading it fails there.
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream {
  const checkEvent = request.routeOptions.config.checkEvent;
  const seen = request.user && !readsLibrary(request.user) ? eventWithoutPassages : (event: StreamEvent) => event;
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, EVENT_STREAM_HEADERS);
  let closed = false;
  const callbacks: (() => void)[] = [];
  const ping = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    for (const callback of callbacks) callback();
  };
  res.on("close", close);
  request.raw.on("close", () => {
    if (res.writableEnded || res.destroyed) close();
  });
  const end = () => {
    if (!closed) res.end();
    close();
  };
  return {
    send(sent) {
      if (closed) return;
      const event = seen(sent);
      const drift = checkEvent?.(event);
      if (drift) {
        request.log.error(drift);
        res.write(`data: ${JSON.stringify({ type: "error", message: drift, status: 500 } satisfies StreamEvent)}\n\n`);
        return end();
      }
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    end,
    get closed() {
      return closed;
    },
    onClose(callback) {
      callbacks.push(callback);
    },
  };
}

/** Relays a reply running on this instance; the reply goes on if the browser leaves. */
export function relayLocal(stream: EventStream, generation: LiveGeneration, first: StreamEvent): void {
  stream.send(first);
  // Text and tool calls that arrived before this follower joined (the start event carries the reply as stored at its
  // start): a step's calls can be recorded before the request's stream is opened, when the provider answered at once.
  if (first.type === "start") {
    const { messageId } = generation;
    if (generation.content) stream.send({ type: "delta", messageId, offset: 0, text: generation.content });
    const shown = new Map(first.assistantMessage.toolCalls.map((call) => [call.id, JSON.stringify(call)]));
    for (const call of generation.toolCalls.map(toToolCall)) {
      if (shown.get(call.id) !== JSON.stringify(call)) stream.send({ type: "tool", messageId, toolCall: call });
    }
  }
  if (generation.finished) {
    for (const event of generation.finished) stream.send(event);
    stream.end();
    return;
  }
  const listener = (event: StreamEvent) => {
    stream.send(event);
    // A reply ends with `done`; a 404 error means its chat was deleted and no `done` will come.
    if (event.type === "done" || (event.type === "error" && event.status === 404)) stream.end();
  };
  generation.listeners.add(listener);
  stream.onClose(() => generation.listeners.delete(listener));
}

/**
 * Relays a reply running on another instance, through Redis. Pieces that the
 * snapshot already holds are dropped by offset, so the browser never sees text twice.
 */
export async function relayRemote(stream: EventStream, generations: GenerationManager, row: Message, owner: string | null): Promise<void> {
  const mirror = generations.mirror;
  if (!mirror || !owner) return stream.end();
  let sent = -1;
  const early: MirrorEvent[] = [];
  const deliver = (event: MirrorEvent) => {
    if (sent < 0) return void early.push(event);
    if (event.type === "delta") {
      if (event.offset > sent || event.offset + event.text.length <= sent) return;
      const text = event.text.slice(sent - event.offset);
      stream.send({ ...event, offset: sent, text });
      sent += text.length;
      return;
    }
    stream.send(event);
    if (event.type === "done") stream.end();
  };
  const follow = await mirror.follow({ owner, messageId: row.id }, deliver);
  stream.onClose(follow.stop);
  const content = follow.content && follow.content.length > row.content.length ? follow.content : row.content;
  // The calls as the owner last mirrored them (the row's are saved a moment later); a `tool` event after this replaces one.
  stream.send({ type: "snapshot", assistantMessage: { ...row, content, toolCalls: follow.toolCalls ?? row.toolCalls } });
  sent = content.length;
  if (follow.done) return deliver(follow.done);
  for (const event of early.splice(0)) deliver(event);
}

/** A reply just started (send or regenerate): its `start` event, then everything it writes. */
export function relayStarted(stream: EventStream, started: StartedReply): void {
  relayLocal(stream, started.generation, { type: "start", userMessage: started.userMessage, assistantMessage: started.assistantMessage });
}
