import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import type { McpLookup } from "../../src/server/ai/mcp/mcp-client.js";
import { buildApp } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import type { Database } from "../../src/server/db/client.js";
import type { CounterStore } from "../../src/server/lib/counter-store.js";
import type { EndpointOutput, EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { type Called, type CallInput, type CallOptions, callEndpoint } from "./api-call.js";
import { openTestDatabase } from "./test-database.js";

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/** Configuration for an app under test: quiet, with a fixed secret (never written to ./data). */
export function testConfig(env: Record<string, string | undefined> = {}) {
  return loadConfig({ LOG_LEVEL: "silent", APP_SECRET: "test-secret-test-secret-test-secret-0123", CHECK_RESPONSES: "true", ...env });
}

/** The real app on a real (scratch) database, driven with app.inject. */
export async function buildTestApp(
  options: {
    /** Variables over the test defaults; `undefined` unsets one (APP_SECRET: the secret generated into DATA_DIR). */
    env?: Record<string, string | undefined>;
    /** The database to run on (closed with the app) instead of a scratch one. */
    database?: Database;
    counters?: CounterStore;
    /** The app's real logger (level: env LOG_LEVEL), writing its lines here; without it the app logs nothing. */
    logStream?: { write(line: string): void };
    /** How the MCP client resolves host names (the real DNS otherwise). */
    mcpLookup?: McpLookup;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = options.database ?? (await openTestDatabase());
  const app = await buildApp({
    config,
    database,
    logger: !!options.logStream,
    logStream: options.logStream,
    counters: options.counters,
    mcpLookup: options.mcpLookup,
  });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A browser-like client that keeps its cookies (the session, a checkout binding...) between calls. */
export class CookieClient {
  private readonly jar = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  /** `sid=...`, or undefined when signed out. */
  get sessionCookie() {
    const sid = this.jar.get("sid");
    return sid ? `sid=${sid}` : undefined;
  }

  /** One cookie's value (e.g. "checkout"), or undefined. */
  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Forgets every cookie (a new browser profile). */
  clearCookies(): void {
    this.jar.clear();
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers = { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) };
    const response = await this.app.inject({ ...options, headers });
    const setCookie = response.headers["set-cookie"];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (at < 1) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }

  /** One call through the contract (tests/helpers/api-call.ts), with this client's cookies: `client.call(chatsApi.get, { params: { id } })`. */
  call<E extends EndpointShape>(endpoint: E, input: CallInput<E>, options?: CallOptions): Promise<Called<E>> {
    return callEndpoint((request) => this.request(request), endpoint, input, options);
  }

  /** A call that must succeed (a test's set-up): its answer, parsed by the contract; the status and body otherwise. */
  async ok<E extends EndpointShape>(endpoint: E, input: CallInput<E>, options?: CallOptions): Promise<EndpointOutput<E>> {
    return (await this.call(endpoint, input, options)).data;
  }

  get(url: string) {
    return this.request({ method: "GET", url });
  }
  post(url: string, payload?: unknown) {
    return this.request({ method: "POST", url, payload: payload as InjectOptions["payload"] });
  }
  patch(url: string, payload?: unknown) {
    return this.request({ method: "PATCH", url, payload: payload as InjectOptions["payload"] });
  }
  delete(url: string) {
    return this.request({ method: "DELETE", url });
  }
}

let counter = 0;
/**
 * A valid registration body with a unique username and email (a free account), typed as the fields it holds: the
 * overrides' types replace the defaults' (`newAccount({ planType: "earlyAccess" })`).
 */
export function newAccount<T extends Record<string, unknown> = Record<never, never>>(overrides?: T): NewAccount<T> {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  const defaults: AccountDefaults = {
    username: `user${id}`,
    name: "Test Person",
    email: `user${id}@example.com`,
    password: "Str0ng!pass",
    planType: "free",
  };
  // A spread of a generic object is typed as an intersection, which would keep both types of an overridden field.
  return { ...defaults, ...overrides } as NewAccount<T>;
}

/** The defaults with the overrides' fields in their place; overrides of no known keys (a loose record) keep the defaults' types. */
type NewAccount<T> = string extends keyof T ? AccountDefaults & T : Omit<AccountDefaults, keyof T> & T;

interface AccountDefaults {
  username: string;
  name: string;
  email: string;
  password: string;
  planType: "free";
}

export async function registerAndSignIn(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const client = new CookieClient(app);
  const body = newAccount(overrides);
  const response = await client.post("/api/register", body);
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { client, body, user: response.json() as { id: number; role: string; username: string } };
}
