import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { guardedFetch, McpError, type McpLookup } from "./guarded-fetch.js";

export { McpError, type McpLookup } from "./guarded-fetch.js";

/**
 * The MCP client (issue 34, decision 045): one short conversation per list or call, over Streamable HTTP or SSE, every
 * request through the guarded fetch (registered origin only, no redirects, no link-local or metadata address, the
 * checked address pinned). Failures throw an `McpError` whose message is plain words.
 */
export interface McpEndpoint {
  url: string;
  transport: "streamable-http" | "sse";
  headers: Record<string, string>;
}

export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface McpCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Host name resolution (the real DNS unless a test passes its own). */
  lookup?: McpLookup;
}

/** A tool's result is cut to this many characters before it goes anywhere (the model, the message, the page). */
export const MCP_RESULT_MAX_CHARS = 20_000;

const CLIENT_INFO = { name: "lumora", version: "1.0.0" };

function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} second${s === 1 ? "" : "s"}`;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 8) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** What went wrong, in words an admin can act on. */
function plainWords(error: unknown, url: URL): string {
  if (error instanceof McpError) return error.message;
  for (const cause of causes(error)) {
    const code = (cause as { code?: unknown }).code;
    if (code === "ECONNREFUSED") return `Nothing answered at ${url.host} (connection refused)`;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `The host name ${url.hostname} could not be found`;
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return `The connection to ${url.host} was cut`;
    if (typeof code === "string" && (code.startsWith("ERR_TLS") || code.includes("CERT"))) {
      return `The secure connection to ${url.host} failed (its certificate was not accepted)`;
    }
    if (code === 401 || code === 403) return `The server refused the request (HTTP ${code}): check its headers`;
    if (code === 404) return "The server answered 404 Not Found: check the URL and the transport";
    if (code === 405) return "The server does not accept this transport here (HTTP 405): try the other transport";
  }
  const message = error instanceof Error ? error.message : String(error);
  const http = /HTTP (\d{3})/.exec(message);
  if (http?.[1] === "401" || http?.[1] === "403") return `The server refused the request (HTTP ${http[1]}): check its headers`;
  if (http?.[1] === "404") return "The server answered 404 Not Found: check the URL and the transport";
  if (http?.[1] === "405") return "The server does not accept this transport here (HTTP 405): try the other transport";
  const short = message.replace(/\s+/g, " ").slice(0, 300);
  return `The MCP server could not be used: ${short}`;
}

/** Opens a client, runs `work`, always closes; a timeout, a stop, a refusal or a failure become one plain McpError. */
async function withClient<T>(
  endpoint: McpEndpoint,
  options: McpCallOptions,
  work: (client: Client, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const url = new URL(endpoint.url);
  const guard = guardedFetch(endpoint.url, endpoint.headers, options.lookup);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new McpError(`The MCP server did not answer within ${seconds(options.timeoutMs)}`));
  }, options.timeoutMs);
  const onStop = () => controller.abort(new McpError("The call was stopped"));
  if (options.signal?.aborted) onStop();
  else options.signal?.addEventListener("abort", onStop, { once: true });

  const transport: Transport =
    endpoint.transport === "sse"
      ? new SSEClientTransport(url, { fetch: guard.fetch, redirectPolicy: "follow" })
      : new StreamableHTTPClientTransport(url, { fetch: guard.fetch, redirectPolicy: "follow", reconnectionOptions: noReconnect });
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  // A stop or timeout ends the wait at once, whatever the transport is doing.
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  stopped.catch(() => {});
  try {
    const run = (async () => {
      await client.connect(transport, { signal: controller.signal, timeout: options.timeoutMs });
      return work(client, controller.signal);
    })();
    run.catch(() => {});
    return await Promise.race([run, stopped]);
  } catch (error) {
    if (timedOut || controller.signal.aborted) throw controller.signal.reason as McpError;
    throw new McpError(plainWords(guard.refusal() ?? error, url));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onStop);
    await client.close().catch(() => {});
    await guard.close();
  }
}

/** The transport tries no reconnection of its own: one conversation, one answer or one error. */
const noReconnect = { maxReconnectionDelay: 0, initialReconnectionDelay: 0, reconnectionDelayGrowFactor: 1, maxRetries: 0 };

/** The server's tools, every page of its list. */
export async function listMcpTools(endpoint: McpEndpoint, options: McpCallOptions): Promise<McpToolInfo[]> {
  return withClient(endpoint, options, async (client, signal) => {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const answer = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: options.timeoutMs });
      for (const tool of answer.tools) {
        tools.push({
          name: tool.name,
          description: tool.description ?? tool.title ?? "",
          inputSchema: (tool.inputSchema ?? { type: "object" }) as Record<string, unknown>,
        });
      }
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });
}

/** A result's content as text: text parts as they are, other parts named, then cut to the cap with a note. */
export function resultText(content: unknown, structured?: unknown): string {
  const parts: string[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    const b = block as { type?: string; text?: string; mimeType?: string; uri?: string; resource?: { uri?: string; text?: string } };
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "image" || b.type === "audio") parts.push(`[${b.type}${b.mimeType ? ` ${b.mimeType}` : ""} not shown]`);
    else if (b.type === "resource") parts.push(b.resource?.text ?? `[resource ${b.resource?.uri ?? ""}]`);
    else if (b.type === "resource_link") parts.push(`[link ${b.uri ?? ""}]`);
  }
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured));
  return capText(parts.join("\n"));
}

export function capText(text: string): string {
  if (text.length <= MCP_RESULT_MAX_CHARS) return text;
  const cut = text.length - MCP_RESULT_MAX_CHARS;
  return `${text.slice(0, MCP_RESULT_MAX_CHARS)}\n[Result cut: ${cut.toLocaleString("en-US")} more characters not shown]`;
}

/** Calls one tool; a tool's own failure is `isError: true` (not thrown); a timeout, stop or transport failure throws. */
export async function callMcpTool(
  endpoint: McpEndpoint,
  name: string,
  args: Record<string, unknown>,
  options: McpCallOptions,
): Promise<{ text: string; isError: boolean }> {
  return withClient(endpoint, options, async (client, signal) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { signal, timeout: options.timeoutMs });
    if ("toolResult" in result) return { text: capText(JSON.stringify(result.toolResult)), isError: false };
    return { text: resultText(result.content, result.structuredContent), isError: result.isError === true };
  });
}
