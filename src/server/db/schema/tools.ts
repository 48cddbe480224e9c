import { boolean, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** A tool an MCP server offers, as its list call gave it, with the admin's choices (issue 34). */
export interface StoredMcpTool {
  name: string;
  description: string;
  /** The tool's JSON Schema for its arguments, as the server gave it. */
  inputSchema: Record<string, unknown>;
  /** The admin turned this tool off: no user sees it. */
  enabled: boolean;
  /** Every call waits for the user's Approve / Deny. */
  needsApproval: boolean;
}

/**
 * An MCP server an admin registered (issue 34), reached over Streamable HTTP or SSE only (no stdio). Its headers are
 * sealed like provider keys (SecretBox) and never sent back; `plans` names the plans whose users may use it.
 */
export const mcpServers = pgTable("mcp_servers", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  url: text("url").notNull(),
  /** streamable-http | sse */
  transport: text("transport").notNull().default("streamable-http"),
  /** AES-256-GCM ciphertext of a JSON object of header names to values; null: no headers. */
  headersEncrypted: text("headers_encrypted"),
  /** The header names only, so the admin page can say which are set without the values. */
  headerNames: jsonb("header_names").$type<string[]>().notNull().default([]),
  /** Plan keys (shared/plan.ts) whose users may use this server's tools. */
  plans: jsonb("plans").$type<string[]>().notNull().default([]),
  enabled: boolean("enabled").notNull().default(true),
  tools: jsonb("tools").$type<StoredMcpTool[]>().notNull().default([]),
  toolsRefreshedAt: timestamp("tools_refreshed_at", { withTimezone: true }),
  /** The last connection or refresh: passed or not (null: never tried), and what it said in plain words. */
  lastOk: boolean("last_ok"),
  lastMessage: text("last_message"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
