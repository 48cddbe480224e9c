// One rule for every stored secret (decision 063): a secret kept in the database goes only to the destination it was saved
// for. Moving an AI platform (base URL, kind), an MCP server (URL) or the SMTP server (host, port, user) while keeping the
// stored secret is refused until the secret is typed again, and the stand-in at the new address receives nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_AGAIN } from "../../src/shared/contracts/ai-platforms.js";
import { MCP_HEADERS_AGAIN } from "../../src/shared/contracts/mcp-servers.js";
import { SMTP_PASS_AGAIN } from "../../src/shared/contracts/platform-settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { MCP_FAKE_API_KEY, type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import { buildTestApp, type CookieClient, type TestApp } from "../helpers/build-test-app.js";
import { adminAndUser, FAKE_KEY, pointPlatformAt } from "../helpers/chat-setup.js";

const ENV_KEY = "sk-env-key-from-the-environment-1234";
const TYPED_KEY = "sk-typed-for-the-new-address-99";

let t: TestApp;
let admin: CookieClient;
let home: FakeProvider;
let elsewhere: FakeProvider;
let mcpHome: McpFake;
let mcpElsewhere: McpFake;
let smtpHome: SmtpFake;
let smtpElsewhere: SmtpFake;

beforeAll(async () => {
  [home, elsewhere, mcpHome, mcpElsewhere, smtpHome, smtpElsewhere] = await Promise.all([
    startOpenAiCompatibleFake(),
    startOpenAiCompatibleFake({ apiKey: TYPED_KEY }),
    startMcpFake({ apiKey: MCP_FAKE_API_KEY }),
    startMcpFake(),
    startSmtpFake(),
    startSmtpFake(),
  ]);
  t = await buildTestApp({ env: { MISTRAL_API_KEY: ENV_KEY } });
  ({ admin } = await adminAndUser(t.app));
});
afterAll(async () => {
  await t?.close();
  await Promise.all([home, elsewhere, mcpHome, mcpElsewhere, smtpHome, smtpElsewhere].map((s) => s?.close()));
});

const keysSeenBy = (fake: FakeProvider) => fake.requests.map((r) => String(r.headers.authorization ?? ""));

describe("an AI platform's stored key", () => {
  it("stays with its base URL and kind: moving it needs the key typed again, and the new address receives nothing", async () => {
    const { id } = await pointPlatformAt(admin, "openai", home);
    const url = `/api/admin/ai-platforms/${id}`;
    expect((await admin.post(`${url}/test`)).statusCode).toBe(200);
    expect(keysSeenBy(home)).toContain(`Bearer ${FAKE_KEY}`);

    // Another base URL (however it is written), or another provider, without the key: refused under the key's field.
    for (const body of [{ baseUrl: elsewhere.url }, { baseUrl: "" }, { kind: "openai-compatible", baseUrl: `${elsewhere.url}/` }]) {
      const moved = await admin.patch(url, body);
      expect(moved.statusCode, JSON.stringify(body)).toBe(400);
      expect(moved.json()).toEqual({ message: API_KEY_AGAIN, errors: { apiKey: API_KEY_AGAIN } });
    }
    expect((await admin.post(`${url}/test`)).statusCode).toBe(200);
    expect(elsewhere.requests).toHaveLength(0);

    // The same address written another way is the same place; other settings still save with the key kept.
    const same = await admin.patch(url, { baseUrl: `${home.url.replace("http://", "HTTP://")}/`, settings: { temperature: 0.5 } });
    expect(same.statusCode, same.body).toBe(200);

    // Typed again, the move is allowed, and the new address gets the key typed, never the old one.
    const typed = await admin.patch(url, { baseUrl: elsewhere.url, apiKey: TYPED_KEY });
    expect(typed.statusCode, typed.body).toBe(200);
    expect((await admin.post(`${url}/test`)).statusCode).toBe(200);
    expect(keysSeenBy(elsewhere)).toEqual([`Bearer ${TYPED_KEY}`]);

    // Removing the key and moving in one request is allowed: no secret goes anywhere.
    const cleared = await admin.patch(url, { baseUrl: home.url, clearApiKey: true });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ hasApiKey: false, baseUrl: home.url });
  });

  it("from the environment goes only to its own provider's address", async () => {
    const list = (await admin.get("/api/ai-platforms")).json() as { id: number; slug: string; apiKeySource: string | null }[];
    const mistral = list.find((p) => p.slug === "mistral");
    expect(mistral?.apiKeySource).toBe("environment");
    const url = `/api/admin/ai-platforms/${mistral?.id}`;

    // Pointed elsewhere, the platform no longer carries the environment's key: it needs one of its own.
    const moved = await admin.patch(url, { kind: "openai-compatible", baseUrl: elsewhere.url, settings: { models: ["fake-model"] } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ hasApiKey: false, apiKeySource: null, apiKeyHint: null });
    const before = elsewhere.requests.length;
    await admin.post(`${url}/test`);
    expect(elsewhere.requests.slice(before).map((r) => String(r.headers.authorization ?? ""))).not.toContain(`Bearer ${ENV_KEY}`);

    // Back at the provider's own address, the environment's key is in use again.
    const back = await admin.patch(url, { kind: "mistral", baseUrl: "" });
    expect(back.json()).toMatchObject({ hasApiKey: true, apiKeySource: "environment" });
  });
});

describe("an MCP server's stored header values", () => {
  it("stay with its URL: a PATCH or a test for another URL that keeps them is refused, and that URL receives nothing", async () => {
    const created = await admin.post("/api/admin/mcp-servers", {
      name: "Tools",
      url: mcpHome.url,
      headers: { "x-api-key": MCP_FAKE_API_KEY },
      plans: ["free"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const url = `/api/admin/mcp-servers/${id}`;

    for (const body of [{ url: mcpElsewhere.url }, { url: mcpElsewhere.url, headers: { "x-api-key": "" } }]) {
      const moved = await admin.patch(url, body);
      expect(moved.statusCode, JSON.stringify(body)).toBe(400);
      expect(moved.json()).toEqual({ message: MCP_HEADERS_AGAIN, errors: { headers: MCP_HEADERS_AGAIN } });
    }
    const tried = await admin.post("/api/admin/mcp-servers/test", { id, url: mcpElsewhere.url, headers: { "x-api-key": "" } });
    expect(tried.statusCode).toBe(400);
    expect(tried.json().errors).toEqual({ headers: MCP_HEADERS_AGAIN });
    expect(mcpElsewhere.requests).toHaveLength(0);

    // At its own URL the stored values are used; typed again, the move is allowed.
    expect((await admin.post("/api/admin/mcp-servers/test", { id, url: mcpHome.url, headers: { "x-api-key": "" } })).statusCode).toBe(200);
    expect((await admin.patch(url, { name: "Renamed", headers: { "x-api-key": "" } })).statusCode).toBe(200);
    const typed = await admin.patch(url, { url: mcpElsewhere.url, headers: { "x-api-key": "typed-for-elsewhere" } });
    expect(typed.statusCode, typed.body).toBe(200);
    expect((await admin.post(`${url}/refresh`)).statusCode).toBe(200);
    expect(mcpElsewhere.requests.map((r) => r.headers["x-api-key"])).not.toContain(MCP_FAKE_API_KEY);
    expect(mcpElsewhere.requests.some((r) => r.headers["x-api-key"] === "typed-for-elsewhere")).toBe(true);

    // Dropping every header while moving is allowed too.
    expect((await admin.patch(url, { url: mcpHome.url, headers: {} })).statusCode).toBe(200);
  });
});

describe("the stored SMTP password", () => {
  it("stays with its server: another port or user is refused, and the other server sees no connection", async () => {
    const form = (extra: Record<string, unknown>) => ({
      smtpHost: "127.0.0.1",
      smtpPort: String(smtpHome.port),
      smtpSecure: false,
      smtpUser: FAKE_SMTP_USER,
      smtpPass: "",
      smtpFromEmail: "noreply@example.com",
      smtpFromName: "Mail",
      ...extra,
    });
    expect((await admin.patch("/api/admin/platform-settings", form({ smtpPass: FAKE_SMTP_PASS }))).statusCode).toBe(200);
    for (const extra of [{ smtpPort: String(smtpElsewhere.port) }, { smtpUser: "someone-else" }]) {
      const moved = await admin.patch("/api/admin/platform-settings", form(extra));
      expect(moved.statusCode).toBe(400);
      expect(moved.json().errors).toEqual({ smtpPass: SMTP_PASS_AGAIN });
      const tested = await admin.post("/api/admin/smtp-test", form(extra));
      expect(tested.statusCode).toBe(400);
    }
    expect(smtpElsewhere.connections).toBe(0);
    expect((await admin.post("/api/admin/smtp-test", form({}))).statusCode).toBe(200);
  });
});
