import { EVENT_OUTSIDE_CONTRACT } from "../../src/server/lib/route.js";
import { type StreamEvent, streamEventSchema } from "../../src/shared/contracts/chat.js";

/**
 * One `data:` line of a reply stream, parsed with the contract's event schema: an event outside it fails the test
 * here, naming what is wrong, and so does the `error` event the server ends a stream with when its own check
 * (CHECK_RESPONSES) caught one before sending it.
 */
export function parseStreamEvent(data: string): StreamEvent {
  const parsed = streamEventSchema.safeParse(JSON.parse(data));
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new Error(`a stream event outside its contract (${where}): ${data.slice(0, 300)}`);
  }
  const event = parsed.data;
  if (event.type === "error" && event.message.startsWith(EVENT_OUTSIDE_CONTRACT)) throw new Error(event.message);
  return event;
}

/**
 * Reads a live SSE response event by event. `until` stops early (the caller then
 * aborts the request); otherwise it reads to the end of the stream.
 */
export async function readEvents(response: Response, until?: (event: StreamEvent, all: StreamEvent[]) => boolean): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  if (!response.body) return events;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const line = buffer
          .slice(0, cut)
          .split("\n")
          .find((l) => l.startsWith("data: "));
        buffer = buffer.slice(cut + 2);
        if (line) {
          const event = parseStreamEvent(line.slice(6));
          events.push(event);
          if (until?.(event, events)) return events;
        }
        cut = buffer.indexOf("\n\n");
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return events;
}

/** The reply's text from a snapshot (if any) and the deltas after it. */
export function replyText(events: StreamEvent[]): string {
  let text = "";
  for (const event of events) {
    if (event.type === "snapshot") text = event.assistantMessage.content;
    if (event.type === "delta") text += event.text;
  }
  return text;
}

export function jsonPost(url: string, cookie: string, body: unknown = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(body), signal });
}

/** The event, which must be of this type (else the test fails here, naming what came): narrowed to that type. */
export function eventOf<T extends StreamEvent["type"]>(event: StreamEvent | undefined, type: T): Extract<StreamEvent, { type: T }> {
  if (event?.type !== type) throw new Error(`expected a ${type} event, got ${event ? JSON.stringify(event).slice(0, 300) : "none"}`);
  return event as Extract<StreamEvent, { type: T }>;
}
