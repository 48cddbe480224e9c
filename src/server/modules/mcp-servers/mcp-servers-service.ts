import { asc, eq } from "drizzle-orm";
import {
  type AdminMcpServer,
  type CreateMcpServerInput,
  MCP_HEADERS_AGAIN,
  type McpTestResult,
  type TestMcpServerInput,
  type UpdateMcpServerInput,
} from "../../../shared/contracts/mcp-servers.js";
import { parseMcpUrl } from "../../ai/mcp/guarded-fetch.js";
import { listMcpTools, McpError, type McpToolInfo } from "../../ai/mcp/mcp-client.js";
import type { Db } from "../../db/client.js";
import { mcpServers } from "../../db/schema/index.js";
import type { StoredMcpTool } from "../../db/schema/tools.js";
import { AppError } from "../../lib/app-error.js";
import { assertStoredSecretStaysHome } from "../../lib/stored-secret.js";
import type { Who } from "../../lib/who.js";
import {
  endpointOf,
  MCP_LIST_TIMEOUT_MS,
  type McpDeps,
  type McpServerRow,
  openHeaders,
  sealHeaders,
  toAdminMcpServer,
} from "./mcp-server-view.js";

/** Admin services receive the admin acting (`who`). */
type Options = { db: Db; deps: McpDeps; who: Who };

const NOT_FOUND = "MCP server not found";

/** A URL refused before any connection (not http(s), credentials in it, a link-local or metadata literal): a 400 on `url`. */
function checkUrl(url: string): void {
  try {
    parseMcpUrl(url);
  } catch (error) {
    if (error instanceof McpError) throw new AppError("BAD_REQUEST", error.message, { errors: { url: error.message } });
    throw error;
  }
}

/**
 * Stored header values go only to the URL they were saved for (the rule of every stored secret, decision 063): a request
 * that keeps one (leaves its value empty, or sends no headers on a PATCH) for another URL must type them again.
 */
function assertHeadersStayHome(row: Pick<McpServerRow, "url" | "headersEncrypted">, url: string | undefined): void {
  if (!row.headersEncrypted) return;
  assertStoredSecretStaysHome({ url: row.url }, { url }, { field: "headers", message: MCP_HEADERS_AGAIN });
}

/** The headers sent, an empty value standing for the one stored under that name (any case). */
function mergeHeaders(sent: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  const storedByName = new Map(Object.entries(stored).map(([k, v]) => [k.toLowerCase(), v]));
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    const kept = value === "" ? storedByName.get(name.toLowerCase()) : value;
    if (kept === undefined) {
      const message = `Enter a value for the header ${name}`;
      throw new AppError("BAD_REQUEST", message, { errors: { headers: message } });
    }
    merged[name] = kept;
  }
  return merged;
}

function storedHeaders(deps: McpDeps, row: McpServerRow): Record<string, string> {
  const headers = openHeaders(deps.secrets, row);
  if (!headers) {
    const message = "The stored headers cannot be read (the app's secret changed): enter them again";
    throw new AppError("BAD_REQUEST", message, { errors: { headers: message } });
  }
  return headers;
}

async function findRow(db: Db, id: number): Promise<McpServerRow> {
  const [row] = await db.select().from(mcpServers).where(eq(mcpServers.id, id)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
}

export async function listMcpServers({ db }: Options): Promise<AdminMcpServer[]> {
  const rows = await db.select().from(mcpServers).orderBy(asc(mcpServers.id));
  return rows.map(toAdminMcpServer);
}

export async function createMcpServer({ db, deps, input }: Options & { input: CreateMcpServerInput }): Promise<AdminMcpServer> {
  checkUrl(input.url);
  const empty = Object.entries(input.headers).find(([, value]) => value === "");
  if (empty)
    throw new AppError("BAD_REQUEST", `Enter a value for the header ${empty[0]}`, {
      errors: { headers: `Enter a value for the header ${empty[0]}` },
    });
  const [row] = await db
    .insert(mcpServers)
    .values({
      name: input.name,
      url: input.url,
      transport: input.transport,
      plans: input.plans,
      enabled: input.enabled,
      ...sealHeaders(deps.secrets, input.headers),
    })
    .returning();
  if (!row) throw new Error("The MCP server was not stored");
  return toAdminMcpServer(row);
}

export async function updateMcpServer({
  db,
  deps,
  id,
  input,
}: Options & { id: number; input: UpdateMcpServerInput }): Promise<AdminMcpServer> {
  const row = await findRow(db, id);
  const change: Partial<typeof mcpServers.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) change.name = input.name;
  if (input.url !== undefined) {
    checkUrl(input.url);
    change.url = input.url;
  }
  if (input.transport !== undefined) change.transport = input.transport;
  if (input.plans !== undefined) change.plans = input.plans;
  if (input.enabled !== undefined) change.enabled = input.enabled;
  let headersChanged = false;
  const keepsStored = input.headers === undefined || Object.values(input.headers).includes("");
  if (keepsStored) assertHeadersStayHome(row, input.url);
  if (input.headers !== undefined) {
    const stored = row.headersEncrypted ? storedHeaders(deps, row) : {};
    const merged = mergeHeaders(input.headers, stored);
    headersChanged = JSON.stringify(merged) !== JSON.stringify(stored);
    if (headersChanged) Object.assign(change, sealHeaders(deps.secrets, merged));
  }
  if (input.tools !== undefined) {
    const byName = new Map(row.tools.map((t) => [t.name, { ...t }]));
    for (const toolChange of input.tools) {
      const tool = byName.get(toolChange.name);
      if (!tool) {
        const message = `The server does not list a tool named ${toolChange.name}`;
        throw new AppError("BAD_REQUEST", message, { errors: { tools: message } });
      }
      if (toolChange.enabled !== undefined) tool.enabled = toolChange.enabled;
      if (toolChange.needsApproval !== undefined) tool.needsApproval = toolChange.needsApproval;
    }
    change.tools = row.tools.map((t) => byName.get(t.name) ?? t);
  }
  // The last result no longer speaks for a server whose address, transport or headers changed.
  const moved =
    (input.url !== undefined && input.url !== row.url) ||
    (input.transport !== undefined && input.transport !== row.transport) ||
    headersChanged;
  if (moved) Object.assign(change, { lastOk: null, lastMessage: null });
  const [updated] = await db.update(mcpServers).set(change).where(eq(mcpServers.id, id)).returning();
  if (!updated) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toAdminMcpServer(updated);
}

export async function deleteMcpServer({ db, id }: Options & { id: number }): Promise<null> {
  const [gone] = await db.delete(mcpServers).where(eq(mcpServers.id, id)).returning({ id: mcpServers.id });
  if (!gone) throw new AppError("NOT_FOUND", NOT_FOUND);
  return null;
}

/** The tools as listed, each with the admin's earlier choices when it was listed before (new ones: on, no approval). */
function mergeTools(listed: McpToolInfo[], before: StoredMcpTool[]): StoredMcpTool[] {
  const previous = new Map(before.map((t) => [t.name, t]));
  return listed.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    enabled: previous.get(tool.name)?.enabled ?? true,
    needsApproval: previous.get(tool.name)?.needsApproval ?? false,
  }));
}

function toolCount(n: number): string {
  return n === 1 ? "1 tool" : `${n} tools`;
}

/** Lists the server's tools; stores them (or, on failure, what failed) and answers the server or a 422 in plain words. */
export async function refreshMcpServer({ db, deps, id }: Options & { id: number }): Promise<AdminMcpServer> {
  const row = await findRow(db, id);
  const endpoint = endpointOf(row, storedHeaders(deps, row));
  let listed: McpToolInfo[];
  try {
    listed = await listMcpTools(endpoint, { timeoutMs: MCP_LIST_TIMEOUT_MS, lookup: deps.lookup });
  } catch (error) {
    const message = error instanceof McpError ? error.message : "The MCP server could not be used";
    await db.update(mcpServers).set({ lastOk: false, lastMessage: message }).where(eq(mcpServers.id, id));
    throw new AppError("UNPROCESSABLE", message);
  }
  const now = new Date();
  const [updated] = await db
    .update(mcpServers)
    .set({
      tools: mergeTools(listed, row.tools),
      toolsRefreshedAt: now,
      lastOk: true,
      lastMessage: `Connected: the server lists ${toolCount(listed.length)}`,
      updatedAt: now,
    })
    .where(eq(mcpServers.id, id))
    .returning();
  if (!updated) throw new AppError("NOT_FOUND", NOT_FOUND);
  return toAdminMcpServer(updated);
}

/** Tries a URL (and headers) before it is saved; `id` fills the header values left empty from that server. */
export async function testMcpServer({ db, deps, input }: Options & { input: TestMcpServerInput }): Promise<McpTestResult> {
  checkUrl(input.url);
  let stored: Record<string, string> = {};
  if (input.id !== undefined && Object.values(input.headers).includes("")) {
    const row = await findRow(db, input.id);
    assertHeadersStayHome(row, input.url);
    stored = storedHeaders(deps, row);
  }
  const headers = mergeHeaders(input.headers, stored);
  try {
    const tools = await listMcpTools(
      { url: input.url, transport: input.transport, headers },
      { timeoutMs: MCP_LIST_TIMEOUT_MS, lookup: deps.lookup },
    );
    return {
      ok: true,
      message: `Connected: the server lists ${toolCount(tools.length)}`,
      tools: tools.map((t) => ({ name: t.name, description: t.description })),
    };
  } catch (error) {
    throw new AppError("UNPROCESSABLE", error instanceof McpError ? error.message : "The MCP server could not be used");
  }
}
