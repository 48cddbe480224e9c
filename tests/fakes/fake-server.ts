// HTTP plumbing shared by the provider fakes: listening, request recording, body parsing, SSE writing
// and a close() that never leaves a test waiting on a hanging request.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const DEFAULT_API_KEY = "sk-test-valid-key-123456";
export const DEFAULT_CHUNK_DELAY_MS = 15;

export interface FakeOptions {
  /** Key the client must send; `null` accepts any key or none. Default {@link DEFAULT_API_KEY}. */
  apiKey?: string | null;
  /** Pause between streamed chunks. Default {@link DEFAULT_CHUNK_DELAY_MS}. */
  chunkDelayMs?: number;
  /** Pause after the stream's headers, before its first content chunk (a model's time to first token). Default 0. */
  firstChunkDelayMs?: number;
  /**
   * Told once a stream's first content chunk is written, with the request's parsed body and `performance.now()` when
   * the request arrived and when that chunk was written: how a bench in the same process tells the stand-in's own
   * time to first token from the time the app adds (bench/concurrent-streams.ts).
   */
  onFirstChunk?: (body: unknown, times: { receivedAt: number; writtenAt: number }) => void;
}

export interface RecordedRequest {
  method: string;
  /** Path as received, with the `/v1` prefix and query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; `undefined` for an empty body, the raw text when it is not JSON. */
  body: unknown;
  /** The body exactly as sent (to check how numbers were written, e.g. `"temperature":0.7`). */
  rawBody: string;
}

export interface FakeProvider {
  /** Base URL to give the SDK (`baseURL`), e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  close(): Promise<void>;
  setChunkDelay(ms: number): void;
  /** Requests whose connection is still open (answered or not): 0 once every client has finished or gone. */
  inFlight(): number;
}

export interface FakeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path without `/v1` and query, so both `http://host:port` and `http://host:port/v1` work as base URL. */
  route: string;
  body: unknown;
  apiKey: string | null;
  chunkDelayMs: number;
  firstChunkDelayMs: number;
  /** To call right after the first content chunk is written (the `onFirstChunk` option; nothing without it). */
  firstChunkWritten: () => void;
}

export async function startFakeServer(options: FakeOptions, handle: (request: FakeRequest) => Promise<void>): Promise<FakeProvider> {
  const apiKey = options.apiKey === undefined ? DEFAULT_API_KEY : options.apiKey;
  let chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
  const requests: RecordedRequest[] = [];

  let open = 0;
  const server = createServer((req, res) => {
    const receivedAt = performance.now();
    open++;
    res.once("close", () => open--);
    void readBody(req)
      .then((text) => {
        const body = parseBody(text);
        const path = req.url ?? "/";
        requests.push({ method: req.method ?? "GET", path, headers: req.headers, body, rawBody: text });
        const route = path.split("?")[0]!.replace(/^\/v1(?=\/|$)/, "") || "/";
        const firstChunkWritten = () => options.onFirstChunk?.(body, { receivedAt, writtenAt: performance.now() });
        return handle({
          req,
          res,
          route,
          body,
          apiKey,
          chunkDelayMs,
          firstChunkDelayMs: options.firstChunkDelayMs ?? 0,
          firstChunkWritten,
        });
      })
      .catch((error: unknown) => {
        // A bug in a fake must show up as a 500 the test can see, not as a silent hang.
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: "fake_error" } });
        else res.destroy();
      });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setChunkDelay(ms) {
      chunkDelayMs = ms;
    },
    inFlight: () => open,
    close() {
      // closeAllConnections also drops requests still open (#hang, #hang-start); server.close alone would wait for them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an SSE response the way the real APIs do; headers go out at once so the client sees a started stream. */
export function openEventStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

/** Writes one SSE event; `event` is set for Anthropic, which names its events, and left out for OpenAI. */
export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  if (res.destroyed) return;
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
}

/** Resolves when the client goes away (or close() drops the socket): how #hang and #hang-start end. */
export function untilClientGone(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => res.once("close", () => resolve()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The key a request carries: `x-api-key` (Anthropic) or `Authorization: Bearer` (everyone, and Anthropic's authToken). */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers["x-api-key"];
  if (typeof header === "string") return header;
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  return match?.[1];
}

/** Compares the presented key with the expected one; `null` expected means the fake is open to anyone. */
export function keyProblem(expected: string | null, presented: string | undefined): "missing-key" | "wrong-key" | null {
  if (expected === null) return null;
  if (!presented) return "missing-key";
  return presented === expected ? null : "wrong-key";
}
