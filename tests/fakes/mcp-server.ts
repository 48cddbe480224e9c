// A real MCP server for the tests (issue 34): the SDK's own McpServer, over Streamable HTTP (stateless: a server and a
// transport per request, as the SDK's examples do) or the older HTTP+SSE transport, on 127.0.0.1 with an ephemeral port.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export const MCP_FAKE_API_KEY = "mcp-test-key-123";
/** What `big` answers: more than the client's cap (20,000 characters). */
export const MCP_BIG_RESULT_CHARS = 50_000;
export const MCP_FAKE_TOOLS = ["echo", "add", "slow", "fails", "big"] as const;

export interface McpFakeOptions {
  transport?: "streamable-http" | "sse";
  /** A header value the client must send as `x-api-key` (401 otherwise); undefined: no check. */
  apiKey?: string;
  /** Every request is answered 302 to this URL (another host), the way a hostile or moved server might. */
  redirectTo?: string;
  /** How long `slow` sleeps before it answers (default 5 s: past the tests' short timeouts). */
  slowMs?: number;
}

export interface McpFake {
  /** The URL to register: `http://127.0.0.1:PORT/mcp` (Streamable HTTP) or `http://127.0.0.1:PORT/sse` (SSE). */
  url: string;
  /** Every request received: method, path and headers. */
  requests: { method: string; path: string; headers: IncomingMessage["headers"] }[];
  /** Tool calls received, by name and arguments. */
  calls: { name: string; args: unknown }[];
  close(): Promise<void>;
}

function buildServer(options: McpFakeOptions, calls: McpFake["calls"]): McpServer {
  const server = new McpServer({ name: "lumora-test-tools", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Answers the text it is given", inputSchema: { text: z.string().describe("What to echo") } },
    async ({ text }) => {
      calls.push({ name: "echo", args: { text } });
      return { content: [{ type: "text", text: `Echo: ${text}` }] };
    },
  );
  server.registerTool("add", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
    calls.push({ name: "add", args: { a, b } });
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  server.registerTool("slow", { description: "Sleeps, then answers", inputSchema: {} }, async () => {
    calls.push({ name: "slow", args: {} });
    await new Promise((resolve) => setTimeout(resolve, options.slowMs ?? 5000));
    return { content: [{ type: "text", text: "Finally done" }] };
  });
  server.registerTool("fails", { description: "Always fails", inputSchema: {} }, async () => {
    calls.push({ name: "fails", args: {} });
    return { isError: true, content: [{ type: "text", text: "The tool failed on purpose" }] };
  });
  server.registerTool("big", { description: "Answers a very long text", inputSchema: {} }, async () => {
    calls.push({ name: "big", args: {} });
    return { content: [{ type: "text", text: "x".repeat(MCP_BIG_RESULT_CHARS) }] };
  });
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

export async function startMcpFake(options: McpFakeOptions = {}): Promise<McpFake> {
  const transportKind = options.transport ?? "streamable-http";
  const requests: McpFake["requests"] = [];
  const calls: McpFake["calls"] = [];
  const sseSessions = new Map<string, SSEServerTransport>();
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push({ method: req.method ?? "", path, headers: req.headers });
    if (options.redirectTo) {
      res.writeHead(302, { location: options.redirectTo }).end();
      return;
    }
    if (options.apiKey !== undefined && req.headers["x-api-key"] !== options.apiKey) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Invalid API key" }));
      return;
    }
    if (transportKind === "streamable-http" && path === "/mcp") {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const body = await readJson(req);
      const server = buildServer(options, calls);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (transportKind === "sse" && path === "/sse" && req.method === "GET") {
      const transport = new SSEServerTransport("/messages", res);
      sseSessions.set(transport.sessionId, transport);
      res.on("close", () => sseSessions.delete(transport.sessionId));
      await buildServer(options, calls).connect(transport);
      return;
    }
    if (transportKind === "sse" && path === "/messages" && req.method === "POST") {
      const id = new URL(req.url ?? "/", "http://x").searchParams.get("sessionId") ?? "";
      const transport = sseSessions.get(id);
      if (!transport) {
        res.writeHead(404).end("No such session");
        return;
      }
      await transport.handlePostMessage(req, res, await readJson(req));
      return;
    }
    res.writeHead(404).end("Not found");
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.end();
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${transportKind === "sse" ? "sse" : "mcp"}`,
    requests,
    calls,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
