import type { AdminMcpServer } from "../../../shared/contracts/mcp-servers.js";
import type { McpEndpoint, McpLookup } from "../../ai/mcp/mcp-client.js";
import type { mcpServers } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secret-box.js";

export type McpServerRow = typeof mcpServers.$inferSelect;

/** What the MCP server services need besides the database: the SecretBox for headers, and how host names resolve. */
export interface McpDeps {
  secrets: SecretBox;
  /** The real DNS unless a test passes its own (app.ts: `mcpLookup`). */
  lookup?: McpLookup;
}

/** How long a list or a connection test may take. */
export const MCP_LIST_TIMEOUT_MS = 15_000;

/** The admin's view: never the header values. */
export function toAdminMcpServer(row: McpServerRow): AdminMcpServer {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    transport: row.transport === "sse" ? "sse" : "streamable-http",
    headerNames: row.headerNames,
    plans: row.plans.filter((p): p is "free" | "earlyAccess" => p === "free" || p === "earlyAccess"),
    enabled: row.enabled,
    tools: row.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      enabled: t.enabled,
      needsApproval: t.needsApproval,
    })),
    toolsRefreshedAt: row.toolsRefreshedAt?.toISOString() ?? null,
    lastOk: row.lastOk,
    lastMessage: row.lastMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The stored headers, opened; a row whose seal no longer opens (the app's secret changed) has none. */
export function openHeaders(secrets: SecretBox, row: Pick<McpServerRow, "headersEncrypted">): Record<string, string> | null {
  if (!row.headersEncrypted) return {};
  try {
    const parsed = JSON.parse(secrets.open(row.headersEncrypted)) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Record<string, string>) : {};
  } catch {
    return null;
  }
}

export function sealHeaders(secrets: SecretBox, headers: Record<string, string>) {
  const names = Object.keys(headers);
  return { headersEncrypted: names.length ? secrets.seal(JSON.stringify(headers)) : null, headerNames: names };
}

export function endpointOf(row: Pick<McpServerRow, "url" | "transport">, headers: Record<string, string>): McpEndpoint {
  return { url: row.url, transport: row.transport === "sse" ? "sse" : "streamable-http", headers };
}
