import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { type StreamEvent, streamEventSchema } from "../../../shared/contracts/chat.js";
import { endpoint } from "../../../shared/contracts/endpoint.js";
import { EVENT_OUTSIDE_CONTRACT, route } from "../../lib/route.js";
import { openEventStream } from "./event-stream.js";

const eventsApi = endpoint({ method: "GET", path: "/api/test/events", access: "public", response: streamEventSchema, kind: "events" });

const message = {
  id: 7,
  chatId: 1,
  parentId: null,
  role: "assistant",
  content: "Hi",
  status: "complete",
  error: null,
  platformSlug: "openai",
  model: "m",
  attachments: [],
  citations: [],
  toolCalls: [],
  inputTokens: null,
  outputTokens: null,
  personalityName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
} as const;

/** A route of the contracts that writes these events, on an app with or without CHECK_RESPONSES; its events as read. */
async function streamed(checkResponses: boolean, events: unknown[]) {
  const app = Fastify();
  const sessions = { cached: () => null, resolve: async () => null };
  app.decorate("ctx", { config: { CHECK_RESPONSES: checkResponses }, sessions } as never);
  route(app, eventsApi, async (request, reply) => {
    const stream = openEventStream(request, reply);
    for (const event of events) stream.send(event as StreamEvent);
    stream.end();
  });
  const res = await app.inject({ method: "GET", url: eventsApi.path });
  await app.close();
  return res.body
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

const delta = { type: "delta", messageId: 7, offset: 0, text: "Hi" };

describe("the events of a stream under CHECK_RESPONSES", () => {
  it("go out as they are when the contract describes them", async () => {
    const events = [
      { type: "start", userMessage: null, assistantMessage: message },
      delta,
      { type: "done", assistantMessage: message, after: null },
    ];
    expect(await streamed(true, events)).toEqual(events);
  });

  it("end the stream with an error event naming a key the contract does not name, which never goes out", async () => {
    const got = await streamed(true, [delta, { ...delta, offset: 2, secret: "password hash" }, delta]);
    expect(got).toHaveLength(2);
    expect(got[0]).toEqual(delta);
    expect(got[1]).toMatchObject({ type: "error", status: 500 });
    expect(got[1]?.message).toContain(EVENT_OUTSIDE_CONTRACT);
    expect(got[1]?.message).toContain("secret");
    expect(JSON.stringify(got)).not.toContain("password hash");
  });

  it("end the stream with an error event naming a field missing or of the wrong type", async () => {
    const missing = await streamed(true, [{ type: "done" }]);
    expect(missing).toEqual([{ type: "error", status: 500, message: expect.stringContaining("assistantMessage") }]);
    const wrongType = await streamed(true, [{ ...delta, offset: "0" }]);
    expect(wrongType).toEqual([{ type: "error", status: 500, message: expect.stringContaining("offset") }]);
    expect(wrongType[0]?.message).toContain("GET /api/test/events");
  });

  it("are not checked without it (production)", async () => {
    const odd = { ...delta, secret: "x" };
    expect(await streamed(false, [odd])).toEqual([odd]);
  });
});
