// MCP servers for admins (issue 34, decision 045): CRUD, sealed headers that never come back, the tools fetched from a
// real MCP server (tests/fakes/mcp-server.ts), the admin's choices per tool, refusals in plain words (a redirect, a
// link-local or metadata address, literal or resolved), access (403, 401), and which users may use which tools.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMcpLookup } from "../../src/server/ai/mcp/guarded-fetch.js";
import { callMcpTool } from "../../src/server/ai/mcp/mcp-client.js";
import { mcpServers } from "../../src/server/db/schema/index.js";
import { usableMcpTools } from "../../src/server/modules/mcp-servers/mcp-tools-service.js";
import {
  type CreateMcpServerBody,
  mcpServersApi,
  type TestMcpServerBody,
  type UpdateMcpServerBody,
} from "../../src/shared/contracts/mcp-servers.js";
import { MCP_FAKE_API_KEY, MCP_FAKE_TOOLS, type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { requestFor } from "../helpers/api-call.js";
import { buildTestApp, CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser } from "../helpers/chat-setup.js";

const LINK_LOCAL_NAME = "metadata-in-disguise.test";

let t: TestApp;
let fake: McpFake;
let sseFake: McpFake;
let redirecting: McpFake;
let admin: CookieClient;
let user: CookieClient;
beforeAll(async () => {
  fake = await startMcpFake({ apiKey: MCP_FAKE_API_KEY });
  sseFake = await startMcpFake({ transport: "sse" });
  redirecting = await startMcpFake({ redirectTo: fake.url });
  // A name that resolves to the metadata address, the way a hostile DNS answer would.
  t = await buildTestApp({
    mcpLookup: async (host) => (host === LINK_LOCAL_NAME ? [{ address: "169.254.169.254", family: 4 }] : defaultMcpLookup(host)),
  });
  ({ admin, user } = await adminAndUser(t.app));
});
afterAll(async () => {
  await t?.close();
  await Promise.all([fake?.close(), sseFake?.close(), redirecting?.close()]);
});

const create = async (body: CreateMcpServerBody) => {
  const res = await admin.call(mcpServersApi.create, { body });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.response.body}`);
  return res.data;
};
const list = () => admin.call(mcpServersApi.list, {});
const update = (id: number, body: UpdateMcpServerBody) => admin.call(mcpServersApi.update, { params: { id }, body });
const refresh = (id: number) => admin.call(mcpServersApi.refresh, { params: { id } });
const tryServer = (body: TestMcpServerBody) => admin.call(mcpServersApi.test, { body });
const del = (id: number) => admin.call(mcpServersApi.remove, { params: { id } });
const remove = async (id: number) => expect((await del(id)).status).toBe(204);

describe("CRUD and sealed headers", () => {
  it("creates, lists, edits and deletes a server; header values never come back", async () => {
    const secret = MCP_FAKE_API_KEY;
    const created = await create({ name: "  Tools  ", url: fake.url, headers: { "x-api-key": secret }, plans: ["earlyAccess"] });
    expect(created).toMatchObject({
      name: "Tools",
      url: fake.url,
      transport: "streamable-http",
      headerNames: ["x-api-key"],
      plans: ["earlyAccess"],
      enabled: true,
      tools: [],
      lastOk: null,
      toolsRefreshedAt: null,
    });
    const row = (await t.app.ctx.db.select().from(mcpServers)).find((r) => r.id === created.id);
    expect(row?.headersEncrypted).toBeTruthy();
    expect(row?.headersEncrypted).not.toContain(secret);

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.data.map((s) => s.id)).toEqual([created.id]);

    // A PATCH without headers keeps them: the refresh still passes the header check.
    const renamed = await update(created.id, { name: "Renamed", plans: ["free", "earlyAccess", "free"] });
    expect(renamed.status).toBe(200);
    expect(renamed.data).toMatchObject({ name: "Renamed", plans: ["free", "earlyAccess"], headerNames: ["x-api-key"] });
    const refreshed = await refresh(created.id);
    expect(refreshed.status, refreshed.response.body).toBe(200);

    // An empty value keeps the stored one; a new name needs a value; names left out are removed.
    expect((await update(created.id, { headers: { "x-api-key": "", "x-other": "" } })).error).toMatchObject({
      message: "Enter a value for the header x-other",
      errors: { headers: "Enter a value for the header x-other" },
    });
    const kept = await update(created.id, { headers: { "X-Api-Key": "", "x-trace": "on" } });
    expect(kept.data).toMatchObject({ headerNames: ["X-Api-Key", "x-trace"], lastOk: null });
    expect((await refresh(created.id)).status).toBe(200);
    const cleared = await update(created.id, { headers: {} });
    expect(cleared.data).toMatchObject({ headerNames: [] });

    // The bodies as sent: no secret anywhere in them.
    for (const body of [listed, renamed, refreshed, kept, cleared, await list()].map((res) => res.response.body)) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain(row?.headersEncrypted ?? "none");
    }
    await remove(created.id);
    expect((await del(created.id)).status).toBe(404);
    expect((await update(created.id, { name: "x" })).status).toBe(404);
    expect((await refresh(created.id)).status).toBe(404);
    expect((await list()).data).toEqual([]);
  });

  it("refuses bad input with the field's message", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: fake.url }, "Name is required"],
      [{ name: "A" }, "URL is required"],
      [{ name: "A", url: "ftp://example.com" }, "The URL must start with http:// or https://"],
      [{ name: "A", url: fake.url, transport: "stdio" }, "Transport must be streamable-http or sse"],
      [{ name: "A", url: fake.url, plans: ["gold"] }, "Unknown plan"],
      [{ name: "A", url: fake.url, headers: { Host: "x" } }, "This header is set by the app itself"],
      [{ name: "A", url: fake.url, headers: { "bad name": "x" } }, "A header name may hold only letters, digits and - _ ."],
      [{ name: "A", url: fake.url, headers: { "x-a": "one\r\nx-b: two" } }, "A header value must be a single line"],
      [{ name: "A", url: fake.url, headers: { "x-a": "" } }, "Enter a value for the header x-a"],
      [{ name: "A", url: "http://user:pw@127.0.0.1/mcp" }, "The URL must not carry a user name or password (use a header)"],
    ];
    // Values the contract's type does not allow among them: each body sent as it is.
    for (const [body, message] of cases) {
      const res = await admin.call(mcpServersApi.create, { body: { name: "", url: "" } }, { rawBody: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.response.body, JSON.stringify(body)).toContain(message);
    }
    expect((await list()).data).toEqual([]);
  });
});

describe("tools", () => {
  it("refresh lists the real server's tools; the admin's choices stay through a refresh", async () => {
    const server = await create({ name: "Tools", url: fake.url, headers: { "x-api-key": MCP_FAKE_API_KEY }, plans: ["free"] });
    const res = await refresh(server.id);
    expect(res.status).toBe(200);
    const refreshed = res.data;
    expect(refreshed.tools.map((tool) => tool.name)).toEqual([...MCP_FAKE_TOOLS]);
    expect(refreshed.tools.every((tool) => tool.enabled && !tool.needsApproval)).toBe(true);
    expect(refreshed.tools.find((tool) => tool.name === "add")?.inputSchema).toMatchObject({ properties: { a: { type: "number" } } });
    expect(refreshed).toMatchObject({ lastOk: true, lastMessage: "Connected: the server lists 5 tools" });
    expect(refreshed.toolsRefreshedAt).not.toBeNull();

    const patched = await update(server.id, {
      tools: [
        { name: "big", enabled: false },
        { name: "echo", needsApproval: true },
      ],
    });
    expect(patched.status).toBe(200);
    const again = (await refresh(server.id)).data;
    expect(again.tools.find((tool) => tool.name === "big")).toMatchObject({ enabled: false, needsApproval: false });
    expect(again.tools.find((tool) => tool.name === "echo")).toMatchObject({ enabled: true, needsApproval: true });
    const unknown = await update(server.id, { tools: [{ name: "nope", enabled: false }] });
    expect(unknown.status).toBe(400);
    expect(unknown.error.message).toBe("The server does not list a tool named nope");
    await remove(server.id);
  });

  it("refreshes over SSE too", async () => {
    const server = await create({ name: "Old server", url: sseFake.url, transport: "sse" });
    const res = await refresh(server.id);
    expect(res.status).toBe(200);
    expect(res.data.tools).toHaveLength(MCP_FAKE_TOOLS.length);
    await remove(server.id);
  });

  it("a failing refresh says why in plain words and stores it", async () => {
    const server = await create({ name: "Tools", url: fake.url, headers: { "x-api-key": "wrong" } });
    const res = await refresh(server.id);
    expect(res.status).toBe(422);
    expect(res.error.message).toBe("The server refused the request (HTTP 401): check its headers");
    const [listed] = (await list()).data;
    expect(listed).toMatchObject({ lastOk: false, lastMessage: "The server refused the request (HTTP 401): check its headers", tools: [] });
    await remove(server.id);
  });
});

describe("the network guard", () => {
  it("refuses a redirecting server, and the server it points to is never reached", async () => {
    const before = fake.requests.length;
    const server = await create({ name: "Moved", url: redirecting.url });
    const res = await refresh(server.id);
    expect(res.status).toBe(422);
    expect(res.error.message).toBe("The server answered with a redirect, which is not followed");
    expect(fake.requests.length).toBe(before);
    const tried = await tryServer({ url: redirecting.url });
    expect(tried.status).toBe(422);
    expect(tried.error.message).toBe("The server answered with a redirect, which is not followed");
    await remove(server.id);
  });

  it("refuses the metadata address and link-local literals when saved or tried", async () => {
    for (const url of [
      "http://169.254.169.254/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]:8080/mcp",
      "http://metadata.google.internal/",
    ]) {
      const res = await admin.call(mcpServersApi.create, { body: { name: "Metadata", url } });
      expect(res.status, url).toBe(400);
      expect(res.error.errors?.url, url).toMatch(/is a link-local or cloud metadata address, which MCP servers may not use$/);
      const tried = await tryServer({ url });
      expect(tried.status, url).toBe(400);
    }
    const server = await create({ name: "Fine", url: fake.url });
    const moved = await update(server.id, { url: "http://169.254.169.254/" });
    expect(moved.status).toBe(400);
    expect(moved.error.message).toBe(
      "The address 169.254.169.254 is a link-local or cloud metadata address, which MCP servers may not use",
    );
    await remove(server.id);
  });

  it("refuses a host name that resolves to a link-local address", async () => {
    const url = `http://${LINK_LOCAL_NAME}:${new URL(fake.url).port}/mcp`;
    const server = await create({ name: "Disguised", url });
    const res = await refresh(server.id);
    expect(res.status).toBe(422);
    expect(res.error.message).toBe(
      `${LINK_LOCAL_NAME} resolves to 169.254.169.254: The address 169.254.169.254 is a link-local or cloud metadata address, which MCP servers may not use`,
    );
    await remove(server.id);
  });

  it("tries a URL before saving, and a saved server's stored headers", async () => {
    const tried = await tryServer({ url: fake.url, headers: { "x-api-key": MCP_FAKE_API_KEY } });
    expect(tried.status).toBe(200);
    expect(tried.data).toMatchObject({ ok: true, message: "Connected: the server lists 5 tools" });
    const server = await create({ name: "Tools", url: fake.url, headers: { "x-api-key": MCP_FAKE_API_KEY } });
    expect((await tryServer({ id: server.id, url: fake.url, headers: { "x-api-key": "" } })).status).toBe(200);
    const wrong = await tryServer({ url: fake.url });
    expect(wrong.status).toBe(422);
    expect(wrong.error.message).toBe("The server refused the request (HTTP 401): check its headers");
    await remove(server.id);
  });
});

describe("access", () => {
  it("answers only admins: 403 for a user, 401 signed out", async () => {
    const server = await create({ name: "Tools", url: fake.url });
    const anon = new CookieClient(t.app);
    const params = { id: server.id };
    const calls = [
      requestFor(mcpServersApi.list, {}),
      requestFor(mcpServersApi.create, { body: { name: "X", url: fake.url } }),
      requestFor(mcpServersApi.update, { params, body: { name: "X" } }),
      requestFor(mcpServersApi.remove, { params }),
      requestFor(mcpServersApi.refresh, { params }),
      requestFor(mcpServersApi.test, { body: { url: fake.url } }),
    ];
    for (const request of calls) {
      const { method, url } = request;
      const asUser = await user.request(request);
      expect(asUser.statusCode, `${method} ${url}`).toBe(403);
      expect((await anon.request(request)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await list()).data).toHaveLength(1);
    await remove(server.id);
  });
});

describe("usableMcpTools", () => {
  it("gives a user the enabled tools of enabled servers open to their plan", async () => {
    const deps = { db: t.app.ctx.db, secrets: t.app.ctx.secrets };
    const everyone = await create({
      name: "For all",
      url: fake.url,
      headers: { "x-api-key": MCP_FAKE_API_KEY },
      plans: ["free", "earlyAccess"],
    });
    const early = await create({ name: "Early only", url: sseFake.url, transport: "sse", plans: ["earlyAccess"] });
    const off = await create({ name: "Off", url: sseFake.url, transport: "sse", plans: ["free", "earlyAccess"], enabled: false });
    for (const s of [everyone, early, off]) expect((await refresh(s.id)).status).toBe(200);
    await update(everyone.id, {
      tools: [
        { name: "big", enabled: false },
        { name: "echo", needsApproval: true },
      ],
    });

    const free = await usableMcpTools(deps, { role: "user", planType: "free" });
    expect(free.map((tool) => tool.id)).toEqual(["echo", "add", "slow", "fails"].map((n) => `mcp:${everyone.id}:${n}`));
    expect(free.find((tool) => tool.name === "echo")).toMatchObject({
      serverId: everyone.id,
      serverName: "For all",
      needsApproval: true,
      endpoint: { url: fake.url, transport: "streamable-http", headers: { "x-api-key": MCP_FAKE_API_KEY } },
    });
    // The endpoint it gives works as is.
    const echo = free.find((tool) => tool.name === "echo");
    if (!echo) throw new Error("no echo tool");
    expect(await callMcpTool(echo.endpoint, echo.name, { text: "from a user" }, { timeoutMs: 5000 })).toEqual({
      text: "Echo: from a user",
      isError: false,
    });

    const earlyAccess = await usableMcpTools(deps, { role: "user", planType: "earlyAccess" });
    expect(new Set(earlyAccess.map((tool) => tool.serverId))).toEqual(new Set([everyone.id, early.id]));
    const asAdmin = await usableMcpTools(deps, { role: "admin", planType: "free" });
    expect(new Set(asAdmin.map((tool) => tool.serverId))).toEqual(new Set([everyone.id, early.id]));

    for (const s of [everyone, early, off]) await remove(s.id);
    expect(await usableMcpTools(deps, { role: "admin", planType: "free" })).toEqual([]);
  });
});
