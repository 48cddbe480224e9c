import { asc, eq } from "drizzle-orm";
import { mcpToolId } from "../../../shared/contracts/tools.js";
import type { McpEndpoint } from "../../ai/mcp/mcp-client.js";
import type { Db } from "../../db/client.js";
import { mcpServers } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type Entitled, entitlements } from "../entitlements/entitlements.js";
import { endpointOf, openHeaders } from "./mcp-server-view.js";

/** An MCP tool a user may call (issue 34): the chat's tool loop offers these and calls them through `endpoint`. */
export interface UsableMcpTool {
  /** `mcp:<serverId>:<toolName>` */
  id: string;
  serverId: number;
  serverName: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  needsApproval: boolean;
  endpoint: McpEndpoint;
}

/**
 * The MCP tools this user may use: enabled servers whose plans include the user's (admins: every server; the one
 * rule is `planAllows` in shared/plan.ts), their enabled tools. A server whose headers no longer open is left out.
 */
export async function usableMcpTools(deps: { db: Db; secrets: SecretBox }, who: Entitled): Promise<UsableMcpTool[]> {
  const rows = await deps.db.select().from(mcpServers).where(eq(mcpServers.enabled, true)).orderBy(asc(mcpServers.id));
  const tools: UsableMcpTool[] = [];
  for (const row of rows) {
    if (!entitlements.planAllows(who, row.plans)) continue;
    const headers = openHeaders(deps.secrets, row);
    if (!headers) continue;
    const endpoint = endpointOf(row, headers);
    for (const tool of row.tools) {
      if (!tool.enabled) continue;
      tools.push({
        id: mcpToolId(row.id, tool.name),
        serverId: row.id,
        serverName: row.name,
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        needsApproval: tool.needsApproval,
        endpoint,
      });
    }
  }
  return tools;
}
