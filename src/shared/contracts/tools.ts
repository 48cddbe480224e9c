import { z } from "zod";
import { citationSchema } from "./citation.js";
import { endpoint } from "./endpoint.js";

/**
 * Tools a reply may call (issue 34, decision 046). A tool's id says where it lives: `builtin:<name>` (the app's own)
 * or `mcp:<serverId>:<toolName>` (a tool of an MCP server an admin registered).
 */
export const BUILTIN_TOOLS = {
  searchFiles: "builtin:search_files",
  currentTime: "builtin:current_time",
} as const;

export const mcpToolId = (serverId: number, toolName: string) => `mcp:${serverId}:${toolName}`;

/** `mcp:<serverId>:<toolName>` read back, or null (a tool name may itself hold colons). */
export function parseMcpToolId(id: string): { serverId: number; toolName: string } | null {
  const match = /^mcp:(\d{1,10}):(.+)$/s.exec(id);
  if (!match?.[1] || !match[2]) return null;
  return { serverId: Number(match[1]), toolName: match[2] };
}

export const TOOL_ID_PATTERN = /^(builtin:[a-z_]{1,64}|mcp:[1-9][0-9]{0,9}:[A-Za-z0-9_.-]{1,128})$/;
export const TOOLS_MAX = 50;
export const UNKNOWN_TOOL = "Unknown tool";

export const toolIdField = z.string({ error: UNKNOWN_TOOL }).regex(TOOL_ID_PATTERN, UNKNOWN_TOOL);

/** A chat's or a personality's tool set: ids, each once, in a stable order (a tool the user may not use is refused). */
export const toolIdsField = z
  .array(toolIdField)
  .max(TOOLS_MAX, `Switch on at most ${TOOLS_MAX} tools`)
  .transform((ids) => [...new Set(ids)].sort());

/** A tool the caller may switch on (GET /api/tools). */
export const toolSchema = z.object({
  id: z.string(),
  /** "Search my files", "Current date and time", or the MCP tool's name. */
  name: z.string(),
  description: z.string(),
  source: z.enum(["builtin", "mcp"]),
  /** The MCP server's name; null for a built-in tool. */
  serverName: z.string().nullable(),
  /** Every call waits for the user's Approve / Deny. */
  needsApproval: z.boolean(),
});
export type Tool = z.infer<typeof toolSchema>;

/**
 * running: being called; awaiting-approval: the reply is paused until the user answers; done: it answered;
 * error: it failed or timed out (the model got an error result and went on); denied: the user said no.
 */
export const toolCallStatusSchema = z.enum(["running", "awaiting-approval", "done", "error", "denied"]);
export type ToolCallStatus = z.infer<typeof toolCallStatusSchema>;

/** A tool call a reply made, as its card shows it. `result` is untrusted text (render it as text), capped. */
export const toolCallSchema = z.object({
  /** The call's id (the provider's), unique within its message; names it for approve and deny. */
  id: z.string(),
  /** The tool's id (`builtin:current_time`, `mcp:3:search`). */
  tool: z.string(),
  /** The tool's name as shown ("Current date and time", the MCP tool's name). */
  name: z.string(),
  /** The arguments the model gave. */
  args: z.record(z.string(), z.unknown()),
  /** The text the model got back; null while running or awaiting approval. */
  result: z.string().nullable(),
  status: toolCallStatusSchema,
  /** Where the reply's text stood when the call was made, so its card sits between the right paragraphs. */
  textOffset: z.number().int(),
  /**
   * The passages of the user's files the call gave the model (search_files), numbered as the model read them: after
   * the reply's own sources and the passages of its earlier calls, so an [n] of the reply names one passage (decision
   * 055). [] for other tools. The reply's `citations` keep those its text cites; these make the chips while it streams.
   */
  sources: z.array(citationSchema),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/** POST /api/chats/:id/tool-calls/:callId/approve and .../deny. */
export const toolCallParamsSchema = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  callId: z.string().min(1).max(200),
});

export const toolsApi = {
  /** The tools the caller may switch on: the built-in ones, and the MCP tools their plan allows (enabled by the admin). */
  list: endpoint({ method: "GET", path: "/api/tools", access: "user", response: z.array(toolSchema) }),
};
