import { mcpToolId, parseMcpToolId, type Tool, UNKNOWN_TOOL } from "../../../shared/contracts/tools.js";
import type { ToolSpec } from "../../ai/generate.js";
import { callMcpTool, type McpLookup } from "../../ai/mcp/mcp-client.js";
import type { Db } from "../../db/client.js";
import type { StoredCitation } from "../../db/schema/index.js";
import { AppError } from "../../lib/app-error.js";
import { assertReadsLibrary, readsLibrary } from "../../lib/library-access.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Who } from "../../lib/who.js";
import type { RetrievalDeps } from "../knowledge/retrieval/retrieve.js";
import { usableMcpTools } from "../mcp-servers/mcp-tools-service.js";
import { BUILTIN_TOOL_LIST } from "./builtin-tools.js";

/** An MCP tool a user may use: its server is enabled and allows their plan, and the admin left the tool on. */
export interface McpToolInfo {
  serverId: number;
  serverName: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  needsApproval: boolean;
  /** One call of it (its server's endpoint, headers opened); bounded by `signal`. */
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<{ text: string; isError: boolean }>;
}

/**
 * What the tools need of the MCP servers: the tools a user may use, asked again at every call (a plan or a server may
 * change between two calls, or while a reply waits for an approval).
 */
export interface McpToolAccess {
  usable(who: Who): Promise<McpToolInfo[]>;
}

/** The longest an MCP call may take by the client's own clock: the reply's call timeout ends it first, by its signal. */
const MCP_CLIENT_LIMIT_MS = 10 * 60_000;

/** The registered MCP servers' tools (the mcp-servers module's `usableMcpTools`), called through the MCP client. */
export function mcpToolAccess(deps: { db: Db; secrets: SecretBox; lookup?: McpLookup }): McpToolAccess {
  return {
    usable: async (who) =>
      (await usableMcpTools(deps, who)).map((tool) => ({
        ...tool,
        call: (args, signal) =>
          callMcpTool(tool.endpoint, tool.name, args, {
            timeoutMs: MCP_CLIENT_LIMIT_MS,
            signal,
            ...(deps.lookup ? { lookup: deps.lookup } : {}),
          }),
      })),
  };
}

/** The name a model calls a tool by: providers take [A-Za-z0-9_-]{1,64}, so an id's colons cannot be used. */
export function modelToolName(toolId: string): string {
  const builtin = BUILTIN_TOOL_LIST.find((tool) => tool.id === toolId);
  if (builtin) return builtin.modelName;
  const mcp = parseMcpToolId(toolId);
  return `mcp${mcp?.serverId ?? ""}_${mcp?.toolName ?? toolId}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

export const NOT_YOURS_TOOL = (id: string) => `The tool ${id} is not available to you.`;

/** GET /api/tools: the built-in tools, then the MCP tools the caller's plan allows, by server and name. */
export async function listTools(options: { who: Who; mcp: McpToolAccess }): Promise<Tool[]> {
  const builtin: Tool[] = BUILTIN_TOOL_LIST.map((tool) => ({
    id: tool.id,
    name: tool.name,
    description: tool.description,
    source: "builtin",
    serverName: null,
    needsApproval: false,
  }));
  const mcp = (await options.mcp.usable(options.who)).map(
    (tool): Tool => ({
      id: mcpToolId(tool.serverId, tool.name),
      name: tool.name,
      description: tool.description,
      source: "mcp",
      serverName: tool.serverName,
      needsApproval: tool.needsApproval,
    }),
  );
  return [...builtin, ...mcp];
}

/** A chat's or a personality's new tool set: every id must be one the caller may use now (403 naming the first that is not). */
export async function assertUsableTools(options: { who: Who; mcp: McpToolAccess; ids: readonly string[] }): Promise<void> {
  if (options.ids.length === 0) return;
  // A tool that reads the library (search_files) needs what the library needs: a token with files:read (decision 056).
  if (BUILTIN_TOOL_LIST.some((tool) => tool.readsLibrary && options.ids.includes(tool.id))) assertReadsLibrary(options.who);
  const usable = new Set((await listTools(options)).map((tool) => tool.id));
  const refused = options.ids.find((id) => !usable.has(id));
  if (refused === undefined) return;
  const known = refused.startsWith("builtin:") || refused.startsWith("mcp:");
  throw known && !refused.startsWith("builtin:")
    ? new AppError("FORBIDDEN", NOT_YOURS_TOOL(refused))
    : new AppError("BAD_REQUEST", UNKNOWN_TOOL);
}

/** Where a call stands in its reply: the number the next source given to the reply takes (decision 055). */
export interface CallPlace {
  firstSourceNumber: number;
}

/** A tool's answer: its text for the model, and the passages of the user's files numbered in it (search_files). */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  sources?: StoredCitation[];
}

/** One tool a reply may call, ready to run. */
export interface RunnableTool {
  id: string;
  name: string;
  spec: ToolSpec;
  needsApproval: boolean;
  run(args: Record<string, unknown>, signal: AbortSignal, place: CallPlace): Promise<ToolAnswer>;
}

/**
 * The tools a reply of a chat may call: the chat's set, less what the caller may no longer use (a plan changed, an
 * admin turned a tool or server off; a token without files:read, for a tool that reads the library: decision 056). An
 * MCP tool's call checks again that the caller may use it (decision 046).
 */
export async function runnableTools(options: {
  who: Who;
  mcp: McpToolAccess;
  retrieval: RetrievalDeps;
  ids: readonly string[];
}): Promise<RunnableTool[]> {
  const { who, mcp, retrieval, ids } = options;
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  const tools: RunnableTool[] = [];
  for (const tool of BUILTIN_TOOL_LIST) {
    if (!wanted.has(tool.id) || (tool.readsLibrary && !readsLibrary(who))) continue;
    tools.push({
      id: tool.id,
      name: tool.name,
      spec: { name: tool.modelName, description: tool.description, inputSchema: tool.inputSchema },
      needsApproval: false,
      run: async (args, _signal, place) => ({ ...(await tool.run({ who, retrieval, ...place }, args)), isError: false }),
    });
  }
  if (ids.some((id) => id.startsWith("mcp:"))) {
    for (const info of await mcp.usable(who)) {
      const id = mcpToolId(info.serverId, info.name);
      if (!wanted.has(id)) continue;
      tools.push({
        id,
        name: info.name,
        spec: { name: modelToolName(id), description: info.description, inputSchema: info.inputSchema },
        needsApproval: info.needsApproval,
        run: async (args, signal) => {
          // At call time: the plan or the server may have changed since the reply started (or since it paused).
          const still = (await mcp.usable(who)).some((t) => t.serverId === info.serverId && t.name === info.name);
          if (!still) return { text: NOT_YOURS_TOOL(id), isError: true };
          return info.call(args, signal);
        },
      });
    }
  }
  return tools;
}
