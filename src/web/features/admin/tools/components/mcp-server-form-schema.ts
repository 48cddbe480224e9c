import { z } from "zod";
import { PLAN_TYPES } from "../../../../../shared/constants.js";
import {
  type AdminMcpServer,
  type CreateMcpServerBody,
  createMcpServerBodySchema,
  MCP_HEADERS_MAX,
  MCP_TRANSPORTS,
} from "../../../../../shared/contracts/mcp-servers.js";

/**
 * The add/edit dialog's fields. Headers are rows (a stored one shows its name with an empty value, which keeps it);
 * the contract checks the names and values again on the server, which answers under `headers`.
 */
export const mcpServerFormSchema = z.object({
  name: createMcpServerBodySchema.shape.name,
  url: createMcpServerBodySchema.shape.url,
  transport: z.enum(MCP_TRANSPORTS),
  headers: z
    .array(z.object({ name: z.string().trim(), value: z.string(), stored: z.boolean() }))
    .max(MCP_HEADERS_MAX, `At most ${MCP_HEADERS_MAX} headers`)
    .superRefine((rows, ctx) => {
      rows.forEach((row, i) => {
        if (!row.name) ctx.addIssue({ code: "custom", message: "A header needs a name", path: [i, "name"] });
        else if (!row.stored && row.value === "")
          ctx.addIssue({ code: "custom", message: `Enter a value for the header ${row.name}`, path: [i, "value"] });
      });
    }),
  plans: z.array(z.enum(PLAN_TYPES)),
});
export type McpServerFormValues = z.input<typeof mcpServerFormSchema>;

export function formValues(server?: AdminMcpServer): McpServerFormValues {
  return {
    name: server?.name ?? "",
    url: server?.url ?? "",
    transport: server?.transport ?? "streamable-http",
    headers: (server?.headerNames ?? []).map((name) => ({ name, value: "", stored: true })),
    plans: server?.plans ?? [...PLAN_TYPES],
  };
}

/** The rows as the API takes them: name to value, an empty value keeping a stored one. */
export function headersBody(rows: McpServerFormValues["headers"]): Record<string, string> {
  return Object.fromEntries(rows.map((row) => [row.name.trim(), row.value]));
}

export function serverBody(values: McpServerFormValues): Required<Omit<CreateMcpServerBody, "enabled">> {
  return { name: values.name, url: values.url, transport: values.transport, headers: headersBody(values.headers), plans: values.plans };
}
