// The MCP client against a real MCP server (the SDK's McpServer, tests/fakes/mcp-server.ts) over both transports, and
// its network guard: headers, redirects, timeouts, the result cap, names resolved once and pinned.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callMcpTool, listMcpTools, MCP_RESULT_MAX_CHARS, type McpEndpoint } from "../../src/server/ai/mcp/mcp-client.js";
import { MCP_BIG_RESULT_CHARS, MCP_FAKE_API_KEY, MCP_FAKE_TOOLS, type McpFake, startMcpFake } from "../fakes/mcp-server.js";

const timeoutMs = 5000;

describe.each(["streamable-http", "sse"] as const)("MCP client over %s", (transport) => {
  let fake: McpFake;
  let endpoint: McpEndpoint;
  beforeAll(async () => {
    fake = await startMcpFake({ transport, apiKey: MCP_FAKE_API_KEY, slowMs: 3000 });
    endpoint = { url: fake.url, transport, headers: { "x-api-key": MCP_FAKE_API_KEY } };
  });
  afterAll(async () => fake?.close());

  it("lists the server's tools with their schemas", async () => {
    const tools = await listMcpTools(endpoint, { timeoutMs });
    expect(tools.map((t) => t.name)).toEqual([...MCP_FAKE_TOOLS]);
    const echo = tools.find((t) => t.name === "echo");
    expect(echo?.description).toBe("Answers the text it is given");
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
  });

  it("calls tools: a text answer, a tool's own error, a result cut to the cap", async () => {
    expect(await callMcpTool(endpoint, "echo", { text: "hi" }, { timeoutMs })).toEqual({ text: "Echo: hi", isError: false });
    expect(await callMcpTool(endpoint, "add", { a: 2, b: 40 }, { timeoutMs })).toEqual({ text: "42", isError: false });
    expect(await callMcpTool(endpoint, "fails", {}, { timeoutMs })).toEqual({ text: "The tool failed on purpose", isError: true });
    const big = await callMcpTool(endpoint, "big", {}, { timeoutMs });
    expect(big.text.startsWith("x".repeat(MCP_RESULT_MAX_CHARS))).toBe(true);
    expect(big.text).toContain(
      `[Result cut: ${(MCP_BIG_RESULT_CHARS - MCP_RESULT_MAX_CHARS).toLocaleString("en-US")} more characters not shown]`,
    );
    expect(fake.calls.map((c) => c.name)).toEqual(["echo", "add", "fails", "big"]);
  });

  it("ends a call that takes too long with plain words", async () => {
    const started = Date.now();
    await expect(callMcpTool(endpoint, "slow", {}, { timeoutMs: 300 })).rejects.toThrow("The MCP server did not answer within 0.3 seconds");
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const call = callMcpTool(endpoint, "slow", {}, { timeoutMs, signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow("The call was stopped");
  });

  it("says when the server refuses the headers", async () => {
    await expect(listMcpTools({ ...endpoint, headers: {} }, { timeoutMs })).rejects.toThrow(
      "The server refused the request (HTTP 401): check its headers",
    );
  });
});

describe("MCP client's network guard", () => {
  let target: McpFake;
  let redirecting: McpFake;
  beforeAll(async () => {
    target = await startMcpFake();
    redirecting = await startMcpFake({ redirectTo: target.url });
  });
  afterAll(async () => {
    await redirecting?.close();
    await target?.close();
  });

  it("does not follow a redirect, even to a working server", async () => {
    const endpoint: McpEndpoint = { url: redirecting.url, transport: "streamable-http", headers: {} };
    await expect(listMcpTools(endpoint, { timeoutMs })).rejects.toThrow("The server answered with a redirect, which is not followed");
    await expect(listMcpTools({ ...endpoint, transport: "sse" }, { timeoutMs })).rejects.toThrow(
      "The server answered with a redirect, which is not followed",
    );
    expect(target.requests).toHaveLength(0);
  });

  it("refuses link-local and metadata addresses, literal or resolved, before connecting", async () => {
    const at = (url: string): McpEndpoint => ({ url, transport: "streamable-http", headers: {} });
    await expect(listMcpTools(at("http://169.254.169.254/mcp"), { timeoutMs })).rejects.toThrow(
      "The address 169.254.169.254 is a link-local or cloud metadata address, which MCP servers may not use",
    );
    await expect(listMcpTools(at("http://[fe80::1]/mcp"), { timeoutMs })).rejects.toThrow("link-local or cloud metadata address");
    const lookup = async () => [{ address: "169.254.169.254", family: 4 }];
    await expect(listMcpTools(at("http://tools.internal.test/mcp"), { timeoutMs, lookup })).rejects.toThrow(
      "tools.internal.test resolves to 169.254.169.254",
    );
  });

  it("resolves a name once and connects to the checked address (a later answer cannot move it)", async () => {
    const port = new URL(target.url).port;
    const answers = [[{ address: "127.0.0.1", family: 4 }], [{ address: "169.254.169.254", family: 4 }]];
    let asked = 0;
    const lookup = async () => answers[Math.min(asked++, 1)] ?? [];
    const endpoint: McpEndpoint = { url: `http://mcp-tools.test:${port}/mcp`, transport: "streamable-http", headers: {} };
    const result = await callMcpTool(endpoint, "echo", { text: "pinned" }, { timeoutMs, lookup });
    expect(result).toEqual({ text: "Echo: pinned", isError: false });
    expect(asked).toBe(1);
    expect(target.requests.at(-1)?.headers.host).toBe(`mcp-tools.test:${port}`);
  });

  it("says plainly when nothing answers", async () => {
    const closed = await startMcpFake();
    const url = closed.url;
    await closed.close();
    await expect(listMcpTools({ url, transport: "streamable-http", headers: {} }, { timeoutMs })).rejects.toThrow(
      `Nothing answered at ${new URL(url).host} (connection refused)`,
    );
  });
});
