import { parseMcpToolId, type Tool, toolsApi } from "../../shared/contracts/tools.js";
import { endpointQuery } from "../lib/endpoint-query.js";

/** GET /api/tools: the tools the signed-in user may use (the chat's tools menu, the personality form, tool cards). */
export const toolsQuery = { ...endpointQuery(toolsApi.list, {}), staleTime: 60_000 };

export type ToolGroup = { key: string; label: string; tools: Tool[] };

/** Built-in tools first, then each MCP server's tools under its name (by server, in the order the list names them). */
export function groupTools(tools: Tool[]): ToolGroup[] {
  const groups: ToolGroup[] = [];
  const builtin = tools.filter((t) => t.source === "builtin");
  if (builtin.length > 0) groups.push({ key: "builtin", label: "Built-in", tools: builtin });
  for (const tool of tools) {
    if (tool.source === "builtin") continue;
    const key = `mcp:${parseMcpToolId(tool.id)?.serverId}`;
    const group = groups.find((g) => g.key === key);
    if (group) group.tools.push(tool);
    else groups.push({ key, label: tool.serverName ?? "MCP server", tools: [tool] });
  }
  return groups;
}

/** Where a tool of a call comes from: "Built-in", or its MCP server's name when the user may still use it. */
export function toolSourceLabel(toolId: string, tools: Tool[] | undefined): string {
  if (toolId.startsWith("builtin:")) return "Built-in";
  return tools?.find((t) => t.id === toolId)?.serverName ?? "MCP server";
}

/** The choice with one tool switched on or off, in the list's order; a tool no longer offered is dropped. */
export function switchTool(offered: Tool[], chosen: string[], id: string, on: boolean): string[] {
  const next = new Set(chosen);
  if (on) next.add(id);
  else next.delete(id);
  return offered.map((t) => t.id).filter((t) => next.has(t));
}
