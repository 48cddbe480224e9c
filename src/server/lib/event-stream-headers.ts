/**
 * The headers of every Server-Sent Events answer (the chat's reply streams, the OpenAI-compatible endpoint's): no
 * caching or transforming on the way, no buffering in a proxy (nginx reads `x-accel-buffering`).
 */
export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
  "x-content-type-options": "nosniff",
} as const;
