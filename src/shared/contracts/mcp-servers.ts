import { z } from "zod";
import { PLAN_TYPES } from "../constants.js";
import { idParamsSchema } from "./common.js";
import { endpoint } from "./endpoint.js";
import { requiredText } from "./fields.js";

/** MCP servers an admin registers (issue 34, decision 045). Their tools' ids: `shared/contracts/tools.ts`. */
export const MCP_TRANSPORTS = ["streamable-http", "sse"] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];
export const MCP_TRANSPORT_LABELS: Record<McpTransport, string> = { "streamable-http": "Streamable HTTP", sse: "SSE (older servers)" };

export const MCP_URL_INVALID = "The URL must start with http:// or https://";
export const MCP_HEADERS_MAX = 20;
/** Stored header values go only to the URL they were saved for (decision 063). */
export const MCP_HEADERS_AGAIN = "Enter the header values again: the URL changed.";

const urlField = z
  .string({ error: "URL is required" })
  .trim()
  .min(1, "URL is required")
  .max(500, "URL cannot exceed 500 characters")
  .refine((v) => /^https?:\/\/[^\s/?#]+/i.test(v), MCP_URL_INVALID);

/** Headers the client writes itself: an admin cannot set them. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "accept",
  "connection",
  "transfer-encoding",
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
]);

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Why a header name is refused, or null (zod's record reports only "Invalid key" for its keys, so they are checked here). */
function headerNameProblem(name: string): string | null {
  if (name.length === 0) return "A header needs a name";
  if (name.length > 100) return "A header name cannot exceed 100 characters";
  if (!HEADER_NAME.test(name)) return "A header name may hold only letters, digits and - _ .";
  if (RESERVED_HEADERS.has(name.toLowerCase())) return "This header is set by the app itself";
  return null;
}

const headerValue = z
  .string({ error: "A header value must be text" })
  .max(4000, "A header value cannot exceed 4000 characters")
  .regex(/^[^\r\n\0]*$/, "A header value must be a single line");

/**
 * Header names to values. On a PATCH (and a test of a saved server) the object replaces the stored headers, and an
 * empty value keeps the value stored under that name, so the page can send the names it shows without the secrets.
 */
const headersField = z.record(z.string(), headerValue).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > MCP_HEADERS_MAX) ctx.addIssue({ code: "custom", message: `At most ${MCP_HEADERS_MAX} headers` });
  if (new Set(names.map((k) => k.toLowerCase())).size !== names.length)
    ctx.addIssue({ code: "custom", message: "A header is named twice" });
  for (const name of names) {
    const problem = headerNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: [name] });
  }
});

const plansField = z
  .array(z.enum(PLAN_TYPES, { error: "Unknown plan" }))
  .max(10, "Too many plans")
  .transform((plans) => [...new Set(plans)]);

export const createMcpServerBodySchema = z.object({
  name: requiredText("Name", 100),
  url: urlField,
  transport: z.enum(MCP_TRANSPORTS, { error: "Transport must be streamable-http or sse" }).default("streamable-http"),
  headers: headersField.default({}),
  plans: plansField.default([]),
  enabled: z.boolean().default(true),
});
export type CreateMcpServerBody = z.input<typeof createMcpServerBodySchema>;
export type CreateMcpServerInput = z.output<typeof createMcpServerBodySchema>;

export const mcpToolChangeSchema = z.object({
  name: z.string().min(1).max(200),
  enabled: z.boolean().optional(),
  needsApproval: z.boolean().optional(),
});

export const updateMcpServerBodySchema = z.object({
  name: createMcpServerBodySchema.shape.name.optional(),
  url: urlField.optional(),
  transport: z.enum(MCP_TRANSPORTS, { error: "Transport must be streamable-http or sse" }).optional(),
  /** Left out: the stored headers stay. */
  headers: headersField.optional(),
  plans: plansField.optional(),
  enabled: z.boolean().optional(),
  /** The admin's choices per tool (by name); a name the server does not list is refused. */
  tools: z.array(mcpToolChangeSchema).max(500).optional(),
});
export type UpdateMcpServerBody = z.input<typeof updateMcpServerBodySchema>;
export type UpdateMcpServerInput = z.output<typeof updateMcpServerBodySchema>;

/** Try a URL before saving (or a saved server's changed settings: `id` fills the headers left empty). */
export const testMcpServerBodySchema = z.object({
  id: z.number().int().positive().optional(),
  url: urlField,
  transport: z.enum(MCP_TRANSPORTS, { error: "Transport must be streamable-http or sse" }).default("streamable-http"),
  headers: headersField.default({}),
});
export type TestMcpServerBody = z.input<typeof testMcpServerBodySchema>;
export type TestMcpServerInput = z.output<typeof testMcpServerBodySchema>;

export const adminMcpToolSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  needsApproval: z.boolean(),
});
export type AdminMcpTool = z.infer<typeof adminMcpToolSchema>;

/** What an admin reads of a server: never its header values, only their names. */
export const adminMcpServerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  headerNames: z.array(z.string()),
  plans: z.array(z.enum(PLAN_TYPES)),
  enabled: z.boolean(),
  tools: z.array(adminMcpToolSchema),
  toolsRefreshedAt: z.string().nullable(),
  /** The last connection (refresh or test of this server): passed or not, in plain words; null: never tried. */
  lastOk: z.boolean().nullable(),
  lastMessage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminMcpServer = z.infer<typeof adminMcpServerSchema>;

export const mcpTestResultSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  tools: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type McpTestResult = z.infer<typeof mcpTestResultSchema>;

export const mcpServersApi = {
  list: endpoint({ method: "GET", path: "/api/admin/mcp-servers", access: "admin", response: z.array(adminMcpServerSchema) }),
  create: endpoint({
    method: "POST",
    path: "/api/admin/mcp-servers",
    access: "admin",
    body: createMcpServerBodySchema,
    response: adminMcpServerSchema,
    status: 201,
  }),
  update: endpoint({
    method: "PATCH",
    path: "/api/admin/mcp-servers/:id",
    access: "admin",
    params: idParamsSchema,
    body: updateMcpServerBodySchema,
    response: adminMcpServerSchema,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/api/admin/mcp-servers/:id",
    access: "admin",
    params: idParamsSchema,
    response: z.null(),
    kind: "empty",
  }),
  /** Fetches the server's tools (the protocol's list call); keeps the admin's choices for tools it still lists. */
  refresh: endpoint({
    method: "POST",
    path: "/api/admin/mcp-servers/:id/refresh",
    access: "admin",
    params: idParamsSchema,
    response: adminMcpServerSchema,
  }),
  test: endpoint({
    method: "POST",
    path: "/api/admin/mcp-servers/test",
    access: "admin",
    body: testMcpServerBodySchema,
    response: mcpTestResultSchema,
  }),
};
