// One rule for every stored secret (decision 063): a secret kept in the database goes only to the destination it was saved
// for. Moving an AI platform (base URL, kind), an MCP server (URL) or the SMTP server (host, port, user) while keeping the
// stored secret is refused until the secret is typed again, and the stand-in at the new address receives nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_AGAIN, aiPlatformsApi, type UpdatePlatformBody } from "../../src/shared/contracts/ai-platforms.js";
import { emailApi } from "../../src/shared/contracts/email.js";
import { MCP_HEADERS_AGAIN, mcpServersApi } from "../../src/shared/contracts/mcp-servers.js";
import { platformSettingsApi, SMTP_PASS_AGAIN } from "../../src/shared/contracts/platform-settings.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { MCP_FAKE_API_KEY, type McpFake, startMcpFake } from "../fakes/mcp-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { FAKE_SMTP_PASS, FAKE_SMTP_USER, type SmtpFake, startSmtpFake } from "../fakes/smtp-fake.js";
import type { CallInput } from "../helpers/api-call.js";
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

const updatePlatform = (id: number, body: UpdatePlatformBody) => admin.call(aiPlatformsApi.update, { params: { id }, body });
const testPlatform = (id: number) => admin.call(aiPlatformsApi.test, { params: { id } });
const keysSeenBy = (fake: FakeProvider) => fake.requests.map((r) => String(r.headers.authorization ?? ""));

describe("an AI platform's stored key", () => {
  it("stays with its base URL and kind: moving it needs the key typed again, and the new address receives nothing", async () => {
    const { id } = await pointPlatformAt(admin, "openai", home);
    expect((await testPlatform(id)).status).toBe(200);
    expect(keysSeenBy(home)).toContain(`Bearer ${FAKE_KEY}`);

    // Another base URL (however it is written), or another provider, without the key: refused under the key's field.
    const moves: UpdatePlatformBody[] = [
      { baseUrl: elsewhere.url },
      { baseUrl: "" },
      { kind: "openai-compatible", baseUrl: `${elsewhere.url}/` },
    ];
    for (const body of moves) {
      const moved = await updatePlatform(id, body);
      expect(moved.status, JSON.stringify(body)).toBe(400);
      // The refusal whole, unparsed.
      expect(moved.response.json()).toEqual({ message: API_KEY_AGAIN, errors: { apiKey: API_KEY_AGAIN } });
    }
    expect((await testPlatform(id)).status).toBe(200);
    expect(elsewhere.requests).toHaveLength(0);

    // The same address written another way is the same place; other settings still save with the key kept.
    const same = await updatePlatform(id, { baseUrl: `${home.url.replace("http://", "HTTP://")}/`, settings: { temperature: 0.5 } });
    expect(same.status, same.response.body).toBe(200);

    // Typed again, the move is allowed, and the new address gets the key typed, never the old one.
    const typed = await updatePlatform(id, { baseUrl: elsewhere.url, apiKey: TYPED_KEY });
    expect(typed.status, typed.response.body).toBe(200);
    expect((await testPlatform(id)).status).toBe(200);
    expect(keysSeenBy(elsewhere)).toEqual([`Bearer ${TYPED_KEY}`]);

    // Removing the key and moving in one request is allowed: no secret goes anywhere.
    const cleared = await updatePlatform(id, { baseUrl: home.url, clearApiKey: true });
    expect(cleared.status, cleared.response.body).toBe(200);
    expect(cleared.data).toMatchObject({ hasApiKey: false, baseUrl: home.url });
  });

  it("from the environment goes only to its own provider's address", async () => {
    const list = await admin.ok(aiPlatformsApi.list, {});
    const mistral = list.find((p) => p.slug === "mistral");
    expect(mistral?.apiKeySource).toBe("environment");
    const id = Number(mistral?.id);

    // Pointed elsewhere, the platform no longer carries the environment's key: it needs one of its own.
    const moved = await updatePlatform(id, { kind: "openai-compatible", baseUrl: elsewhere.url, settings: { models: ["fake-model"] } });
    expect(moved.status, moved.response.body).toBe(200);
    expect(moved.data).toMatchObject({ hasApiKey: false, apiKeySource: null, apiKeyHint: null });
    const before = elsewhere.requests.length;
    await testPlatform(id);
    expect(elsewhere.requests.slice(before).map((r) => String(r.headers.authorization ?? ""))).not.toContain(`Bearer ${ENV_KEY}`);

    // Back at the provider's own address, the environment's key is in use again.
    const back = await updatePlatform(id, { kind: "mistral", baseUrl: "" });
    expect(back.data).toMatchObject({ hasApiKey: true, apiKeySource: "environment" });
  });
});

describe("an MCP server's stored header values", () => {
  it("stay with its URL: a PATCH or a test for another URL that keeps them is refused, and that URL receives nothing", async () => {
    const created = await admin.call(mcpServersApi.create, {
      body: { name: "Tools", url: mcpHome.url, headers: { "x-api-key": MCP_FAKE_API_KEY }, plans: ["free"] },
    });
    expect(created.status, created.response.body).toBe(201);
    const id = created.data.id;
    const update = (body: CallInput<typeof mcpServersApi.update>["body"]) => admin.call(mcpServersApi.update, { params: { id }, body });
    const test = (body: CallInput<typeof mcpServersApi.test>["body"]) => admin.call(mcpServersApi.test, { body });

    for (const body of [{ url: mcpElsewhere.url }, { url: mcpElsewhere.url, headers: { "x-api-key": "" } }]) {
      const moved = await update(body);
      expect(moved.status, JSON.stringify(body)).toBe(400);
      expect(moved.response.json()).toEqual({ message: MCP_HEADERS_AGAIN, errors: { headers: MCP_HEADERS_AGAIN } });
    }
    const tried = await test({ id, url: mcpElsewhere.url, headers: { "x-api-key": "" } });
    expect(tried.status).toBe(400);
    expect(tried.error.errors).toEqual({ headers: MCP_HEADERS_AGAIN });
    expect(mcpElsewhere.requests).toHaveLength(0);

    // At its own URL the stored values are used; typed again, the move is allowed.
    expect((await test({ id, url: mcpHome.url, headers: { "x-api-key": "" } })).status).toBe(200);
    expect((await update({ name: "Renamed", headers: { "x-api-key": "" } })).status).toBe(200);
    const typed = await update({ url: mcpElsewhere.url, headers: { "x-api-key": "typed-for-elsewhere" } });
    expect(typed.status, typed.response.body).toBe(200);
    expect((await admin.call(mcpServersApi.refresh, { params: { id } })).status).toBe(200);
    expect(mcpElsewhere.requests.map((r) => r.headers["x-api-key"])).not.toContain(MCP_FAKE_API_KEY);
    expect(mcpElsewhere.requests.some((r) => r.headers["x-api-key"] === "typed-for-elsewhere")).toBe(true);

    // Dropping every header while moving is allowed too.
    expect((await update({ url: mcpHome.url, headers: {} })).status).toBe(200);
  });
});

describe("the stored SMTP password", () => {
  it("stays with its server: another port or user is refused, and the other server sees no connection", async () => {
    const form = (extra: { smtpPass?: string; smtpPort?: string; smtpUser?: string }) => ({
      smtpHost: "127.0.0.1",
      smtpPort: String(smtpHome.port),
      smtpSecure: false,
      smtpUser: FAKE_SMTP_USER,
      smtpPass: "",
      smtpFromEmail: "noreply@example.com",
      smtpFromName: "Mail",
      ...extra,
    });
    const save = (body: ReturnType<typeof form>) => admin.call(platformSettingsApi.update, { body });
    const smtpTest = (body: ReturnType<typeof form>) => admin.call(emailApi.smtpTest, { body });
    expect((await save(form({ smtpPass: FAKE_SMTP_PASS }))).status).toBe(200);
    for (const extra of [{ smtpPort: String(smtpElsewhere.port) }, { smtpUser: "someone-else" }]) {
      const moved = await save(form(extra));
      expect(moved.status).toBe(400);
      expect(moved.error.errors).toEqual({ smtpPass: SMTP_PASS_AGAIN });
      const tested = await smtpTest(form(extra));
      expect(tested.status).toBe(400);
    }
    expect(smtpElsewhere.connections).toBe(0);
    expect((await smtpTest(form({}))).status).toBe(200);
  });
});
