import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../src/server/app.js";
import { users } from "../../src/server/db/schema/index.js";
import { hashPassword } from "../../src/server/lib/passwords.js";
import { errorHandlerPlugin } from "../../src/server/plugins/error-handler.js";
import { tokensApi } from "../../src/shared/contracts/api-tokens.js";
import { quizzesApi } from "../../src/shared/contracts/assessment.js";
import { authApi } from "../../src/shared/contracts/auth.js";
import { chatsApi } from "../../src/shared/contracts/chat.js";
import { coursesApi, lessonsApi } from "../../src/shared/contracts/courses.js";
import type { EndpointShape } from "../../src/shared/contracts/endpoint.js";
import { userApi } from "../../src/shared/contracts/user.js";
import type { FakeProvider } from "../fakes/fake-server.js";
import { startOpenAiCompatibleFake } from "../fakes/openai-compatible-fake.js";
import { requestFor } from "../helpers/api-call.js";
import { CookieClient, newAccount, type TestApp, testConfig } from "../helpers/build-test-app.js";
import { pointPlatformAt } from "../helpers/chat-setup.js";
import { contractEndpoints } from "../helpers/contract-endpoints.js";
import { type SeededRandom, seededRandom } from "../helpers/seeded-random.js";
import { openTestDatabase } from "../helpers/test-database.js";

const SEED = Number(process.env.FUZZ_SEED ?? 14_0014);
const WRITE_CASES = Number(process.env.FUZZ_CASES ?? 200);
const READ_CASES = Math.ceil(WRITE_CASES / 5);
const ONLY = process.env.FUZZ_ONLY;

// ---------------------------------------------------------------------------------------------------------
// Hostile values

const HUGE = "x".repeat(100_000);
const hostileStrings = [
  "",
  " ",
  HUGE,
  "é".repeat(50_000),
  "\u0000",
  "a\u0000b",
  "\ud800",
  "tail \udfff",
  "\ud83d\ude00 emoji",
  "\u202eevil",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "%00",
  "../../etc/passwd",
  "1",
  "-1",
  "1e400",
  "0x1F",
  "NaN",
  "null",
  "2026-13-45T99:99:99Z",
  "__proto__",
  "a@b",
  "http://127.0.0.1:1/",
  "javascript:alert(1)",
];
const hostileNumbers = [-1, 0, 1.5, -0.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.1 + 0.2];

function deep(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

function hostileValue(r: SeededRandom): unknown {
  switch (r.int(9)) {
    case 0:
    case 1:
    case 2:
      return r.pick(hostileStrings);
    case 3:
      return r.pick(hostileNumbers);
    case 4:
      return r.pick([true, false, null]);
    case 5:
      return r.pick([[], {}, [1, 2, 3], ["a", null], [{}], Array.from({ length: 5000 }, (_, i) => i)]);
    case 6:
      return deep(r.pick([40, 200, 2000]), r.pick(["\u0000", "x", 1]), r.chance(0.5));
    case 7:
      return { __proto__: { admin: true }, constructor: { prototype: { admin: true } } };
    default:
      return { [r.pick(hostileStrings).slice(0, 50) || "k"]: r.pick(hostileStrings) };
  }
}

// ---------------------------------------------------------------------------------------------------------
// A mostly valid body from the contract's schema, so that mutations reach past validation into the services

type Json = Record<string, unknown>;

function sample(schema: Json | undefined, r: SeededRandom, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (Array.isArray(schema.enum)) return r.pick(schema.enum);
  if ("const" in schema) return schema.const;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives?.length) return sample(r.pick(alternatives), r, depth + 1);
  if (Array.isArray(schema.allOf) && schema.allOf.length) return sample(schema.allOf[0] as Json, r, depth + 1);
  const type = Array.isArray(schema.type) ? r.pick(schema.type as string[]) : schema.type;
  switch (type) {
    case "object": {
      const out: Json = {};
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const [key, value] of Object.entries(props)) {
        if (required.has(key) || r.chance(0.7)) out[key] = sample(value, r, depth + 1);
      }
      return out;
    }
    case "array": {
      const min = Number(schema.minItems ?? 0);
      const n = Math.max(min, r.int(3));
      return Array.from({ length: n }, () => sample(schema.items as Json, r, depth + 1));
    }
    case "string": {
      if (schema.format === "email") return `fuzz${r.int(1e6)}@example.com`;
      if (schema.format === "uri") return "https://example.com/x";
      if (schema.format === "date-time") return new Date(0).toISOString();
      const min = Number(schema.minLength ?? 1);
      const max = Number(schema.maxLength ?? 40);
      return "Fuzz".padEnd(Math.min(Math.max(min, 8), max), "z").slice(0, Math.max(max, 1));
    }
    case "integer":
    case "number": {
      const min = Number(schema.minimum ?? schema.exclusiveMinimum ?? 1);
      const max = Number(schema.maximum ?? min + 10);
      const step = Number(schema.multipleOf ?? 1);
      return Math.min(max, Math.max(min, Math.round((min + r.int(3) * step) / step) * step));
    }
    case "boolean":
      return r.chance(0.5);
    case "null":
      return null;
    default:
      return r.pick(["x", 1, true]);
  }
}

const jsonSchemas = new WeakMap<z.ZodType, Json>();
function inputJsonSchema(schema: z.ZodType | undefined): Json | undefined {
  if (!schema) return undefined;
  let json = jsonSchemas.get(schema);
  if (!json) {
    try {
      json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
    } catch {
      json = {};
    }
    jsonSchemas.set(schema, json);
  }
  return json;
}

/** Replaces (or adds) one value somewhere in the body with a hostile one. */
function mutate(body: unknown, r: SeededRandom): unknown {
  if (!body || typeof body !== "object" || r.chance(0.15)) return hostileValue(r);
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  const keys = Object.keys(copy);
  const key = keys.length && r.chance(0.8) ? r.pick(keys) : r.pick(["extra", "id", "role", "userId", "__proto__", "order", "password"]);
  copy[key] = r.chance(0.3) && copy[key] && typeof copy[key] === "object" ? mutate(copy[key], r) : hostileValue(r);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------
// Requests

const malformedJsonTexts = [
  "",
  "{",
  '{"a":',
  "[",
  "nul",
  "{'a':1}",
  '{"a":1,}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  "1e999999",
  "-",
  '"just a string"',
  "\u0000",
  "\ufeff{}",
  "[".repeat(100_000),
  `{"a":"${"\\".repeat(1001)}"}`,
];
const contentTypes = [
  "application/json",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/octet-stream",
  "garbage",
  "application/json; boundary=;;;",
  "",
];
const hostileIds = [
  "0",
  "-1",
  "1.5",
  "2147483648",
  "9007199254740993",
  "1e3",
  "abc",
  "%00",
  "%F0%28%8C%28",
  "%ED%A0%80",
  "9".repeat(150),
  "%201",
  "0x10",
  "null",
  "undefined",
  "1%2F2",
  "",
];

function randomHeaders(r: SeededRandom): Record<string, string> {
  const headers: Record<string, string> = {};
  const count = r.int(4);
  for (let i = 0; i < count; i++) {
    const [name, value] = r.pick<[string, string]>([
      ["x-forwarded-for", r.pick(["1.2.3.4", "not-an-ip", "::1, 10.0.0.1, evil", "999.999.999.999"])],
      ["accept", r.pick(["*/*", "text/event-stream", "application/xml", "garbage/;;"])],
      ["accept-encoding", r.pick(["gzip", "br", "identity;q=0", "*;q=garbage"])],
      ["accept-language", r.pick(["en", "zz-ZZ", "*", ";;;"])],
      ["content-encoding", r.pick(["gzip", "br", "bogus"])],
      ["origin", r.pick(["https://evil.example", "null", "http://localhost"])],
      ["referer", r.pick(["https://evil.example/x", "not a url"])],
      ["if-none-match", r.pick(['"x"', "*"])],
      ["range", r.pick(["bytes=0-1", "bytes=garbage"])],
      ["user-agent", HUGE.slice(0, 8000)],
      ["x-request-id", "\u00ff\u00fe"],
      ["last-event-id", r.pick(["-1", "abc", "99999999999999999999"])],
      ["cookie", r.pick(["sid=garbage", "sid=", "sid=%00", "a=b; sid=x; sid=y"])],
    ]);
    headers[name] = value;
  }
  return headers;
}

function fillPath(template: string, r: SeededRandom, realIds: number[], protect: Set<number>): string {
  return template.replace(/:([A-Za-z]+)/g, () => {
    if (r.chance(0.55)) {
      let id = r.pick(realIds);
      if (template.startsWith("/api/admin/users") && protect.has(id)) id = 999_999;
      return String(id);
    }
    return r.pick(hostileIds);
  });
}

function randomQuery(endpoint: EndpointShape, r: SeededRandom): string {
  const params = new URLSearchParams();
  const known = Object.keys(((inputJsonSchema(endpoint.query)?.properties ?? {}) as Json) || {});
  const names = [...known, "q", "limit", "cursor", "id", "__proto__", "status"];
  const count = r.int(4);
  for (let i = 0; i < count; i++) {
    const value = r.pick([...hostileIds, ...hostileStrings.filter((s) => s.length < 1000), String(r.pick(hostileNumbers)), "[]", "a&b"]);
    params.append(r.pick(names), value);
  }
  if (r.chance(0.1)) return `?${r.pick(["%", "%%", "a=%ZZ", "a[b]=1&a[c]=2", "limit=1&limit=2"])}`;
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The path written in a form that is not canonical (issue 28): the prefix or a segment percent-encoded or in
 * another case. Only forms that `app.inject`'s URL parser keeps as they are (it resolves `//`, `/./` and `\`
 * itself; tests/api/access-matrix.test.ts sends those on a raw socket). Each must answer 404.
 */
const ODD_PREFIXES: Record<string, string[]> = {
  api: ["/%61pi/", "/%41PI/", "/ap%69/", "/API/", "/Api/", "/%41pi/"],
  v1: ["/%76%31/", "/V1/", "/v%31/", "/%56%31/"],
};
/** The endpoint's prefix: `api`, or `v1` for the OpenAI-compatible endpoints (decision 051). */
const prefixOf = (url: string) => (url.startsWith("/v1/") ? "v1" : "api");
function oddPath(url: string, r: SeededRandom): string {
  const prefix = prefixOf(url);
  if (r.chance(0.3))
    return url.replace(/^\/(api|v1)\/(.)/, (_m, p: string, c: string) => `/${p}/%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return r.pick(ODD_PREFIXES[prefix] ?? []) + url.slice(prefix.length + 2);
}
const isOdd = (url: string) =>
  (!url.startsWith("/api/") && !url.startsWith("/v1/")) || /%(?:3[0-9]|[46][1-9a-f]|[57][0-9a])/i.test(url.split("?")[0] ?? "");

/** A personal API token of a signed-in client (the `/v1` endpoints take nothing else), made once per client. */
const tokens = new WeakMap<CookieClient, string | null>();
async function tokenOf(client: CookieClient): Promise<string | null> {
  if (!tokens.has(client)) {
    const res = await client.call(tokensApi.create, { body: { name: "fuzz", expiresInDays: 1, scopes: ["chat", "models"] } });
    tokens.set(client, res.status === 201 ? res.data.token : null);
  }
  return tokens.get(client) ?? null;
}

function buildCase(endpoint: EndpointShape, r: SeededRandom, realIds: number[], protect: Set<number>): InjectOptions {
  const canonical = fillPath(endpoint.path, r, realIds, protect) + (endpoint.query || r.chance(0.2) ? randomQuery(endpoint, r) : "");
  const url = r.chance(0.1) ? oddPath(canonical, r) : canonical;
  const headers = randomHeaders(r);
  const options: InjectOptions = { method: endpoint.method, url, headers, remoteAddress: `10.${r.int(250)}.${r.int(250)}.${r.int(250)}` };
  if (endpoint.method === "GET") return options;
  const bodySchema = inputJsonSchema(endpoint.body);
  switch (r.int(10)) {
    case 0:
    case 1:
    case 2:
      options.payload = mutate(sample(bodySchema, r), r) as InjectOptions["payload"];
      break;
    case 3:
      options.payload = mutate(mutate(sample(bodySchema, r), r), r) as InjectOptions["payload"];
      break;
    case 4:
      // Valid as the contract says (so the path, query and headers reach the service), sometimes with extra keys.
      options.payload = r.chance(0.5)
        ? (sample(bodySchema, r) as InjectOptions["payload"])
        : { ...(sample(bodySchema, r) as Json), extra: hostileValue(r), [r.pick(hostileStrings).slice(0, 40) || "k"]: 1 };
      break;
    case 5:
      options.payload = hostileValue(r) as InjectOptions["payload"];
      break;
    case 6:
    case 7:
      options.payload = r.pick(malformedJsonTexts);
      headers["content-type"] = "application/json";
      break;
    case 8:
      options.payload = r.pick([JSON.stringify(sample(bodySchema, r)), "a=1&b=2", "\u0000\u0001\u0002", HUGE, "--x\r\n\r\n"]);
      headers["content-type"] = r.pick(contentTypes);
      break;
    default:
      // No body at all.
      break;
  }
  if (options.payload !== undefined && typeof options.payload !== "string" && !headers["content-type"] && r.chance(0.1)) {
    options.payload = JSON.stringify(options.payload);
    headers["content-type"] = r.pick(contentTypes);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------

const ADMIN_PASSWORD = "Fuzz!Admin1pass";
const USER_PASSWORD = "Fuzz!User1pass";
const logLines: string[] = [];
let t: TestApp;
let admin: CookieClient;
let member: CookieClient;
let anonymous: CookieClient;
const realIds: number[] = [1, 2, 3];
const protect = new Set<number>();
let addressCounter = 0;
let aiFake: FakeProvider;

/** A signed-in client for `role`, made straight in the database if the fuzz logged it out, demoted or renamed it. */
async function signIn(role: "admin" | "user"): Promise<CookieClient> {
  const account = newAccount();
  const password = role === "admin" ? ADMIN_PASSWORD : USER_PASSWORD;
  const [row] = await t.database.db
    .insert(users)
    .values({ username: account.username, email: account.email, name: "Fuzz", passwordHash: await hashPassword(password), role })
    .returning({ id: users.id });
  if (!row) throw new Error("no user row");
  protect.add(row.id);
  const client = new CookieClient(t.app);
  addressCounter += 1;
  // Each sign-in from its own address (the contract's call has no remote address to give): the request built from it.
  const res = await client.request({
    ...requestFor(authApi.login, { body: { username: account.username, password } }),
    remoteAddress: `192.168.${addressCounter >> 8}.${addressCounter & 255}`,
  });
  if (res.statusCode !== 200) throw new Error(`fuzz sign-in failed: ${res.statusCode} ${res.body}`);
  return client;
}

async function stillSignedIn(client: CookieClient, role: "admin" | "user"): Promise<boolean> {
  const res = await client.call(userApi.me, {});
  if (res.status !== 200) return false;
  const me = res.data;
  const [row] = await t.database.db.select({ status: users.status }).from(users).where(eq(users.id, me.id));
  return me.role === role && row?.status === "active";
}

beforeAll(async () => {
  aiFake = await startOpenAiCompatibleFake({ chunkDelayMs: 0 });
  const config = testConfig({ LOG_LEVEL: "error" });
  const database = await openTestDatabase();
  const app = await buildApp({ config, database, logStream: { write: (line) => void logLines.push(line) } });
  await app.ready();
  t = {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
  admin = await signIn("admin");
  member = await signIn("user");
  anonymous = new CookieClient(t.app);
  await pointPlatformAt(admin, "openai", aiFake);
  // Something real to point ids at: a course with a module and lessons, a chat.
  for (const client of [member, admin]) {
    const course = await client.ok(coursesApi.create, { body: { title: "Fuzz course" } });
    const module = await client.ok(coursesApi.createModule, { params: { id: course.id }, body: { title: "Fuzz module" } });
    const lesson = await client.ok(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Fuzz lesson", type: "reading", content: "x" },
    });
    const chat = await client.ok(chatsApi.create, { body: { title: "Fuzz chat" } });
    // A published quiz with a question, and an attempt at it (issue 32).
    const quiz = await client.ok(lessonsApi.create, {
      params: { id: module.id },
      body: { title: "Fuzz quiz", type: "quiz", kind: "quiz" },
    });
    const question = await client.ok(quizzesApi.addQuestion, {
      params: { id: quiz.id },
      body: { kind: "single", prompt: "Q", options: ["a", "b"], correct: [0] },
    });
    await client.ok(quizzesApi.publish, { params: { id: quiz.id }, body: { passMark: 50, attempts: null } });
    const attempt = await client.ok(quizzesApi.startAttempt, { params: { id: quiz.id } });
    realIds.push(course.id, module.id, lesson.id, chat.id, quiz.id, question.id, attempt.id);
  }
}, 60_000);
afterAll(async () => {
  if (process.env.FUZZ_STATS) console.log([...statuses].map(([key, n]) => `${key}: ${n}`).join("\n"));
  await t?.close();
  await aiFake?.close();
});

/**
 * Endpoints that call an outside service set up by an administrator (an AI provider, Stripe). When that service
 * is not set up or cannot be reached they answer 502/503/504 with a message saying so (DESIGN: 503 provider
 * unavailable): that comes from the stored configuration, not from the request, so it is not a finding. The
 * connection tests (SMTP, AI platform, template test send) are not here: a failed test answers 422, since what
 * it tests is what was sent. Any 500, and any 5xx elsewhere or with the generic message, is a finding.
 */
const OUTSIDE_SERVICES = new Set([
  "POST /api/ai/chat",
  "POST /api/ai/course-description",
  "POST /api/chats/:id/reply",
  "POST /api/chats/:id/regenerate",
  "POST /api/chats/:id/messages/:messageId/edit",
  "POST /api/courses/:id/generate/outline",
  "POST /api/modules/:id/lesson-content",
  "POST /api/lessons/:id/questions/generate",
  "POST /api/attempts/:id/submit",
  "POST /api/create-payment-intent",
  "POST /api/early-access/complete",
  "POST /v1/chat/completions",
  "POST /v1/embeddings",
]);
const GENERIC_5XX = "Something went wrong on our side. Please try again in a moment.";

function isFinding(endpoint: string, status: number, body: string): boolean {
  if (status < 500) return false;
  if (!OUTSIDE_SERVICES.has(endpoint) || ![502, 503, 504].includes(status)) return true;
  try {
    // The app's `{ message }`, or OpenAI's `{ error: { message } }` on `/v1` (decision 051).
    const parsed = JSON.parse(body) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed.message ?? parsed.error?.message;
    return typeof message !== "string" || message === "" || message === GENERIC_5XX;
  } catch {
    return true;
  }
}

type Clients = { admin: CookieClient; member: CookieClient; anonymous: CookieClient };

type Finding = { endpoint: string; as: string; request: string; status: number; answer: string; stack: string };

function describeRequest(options: InjectOptions): string {
  const payload = typeof options.payload === "string" ? options.payload : JSON.stringify(options.payload);
  const shown = payload === undefined ? "(none)" : payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} chars)` : payload;
  return `${options.method} ${String(options.url).slice(0, 300)} headers=${JSON.stringify(options.headers)} body=${JSON.stringify(shown)}`;
}

/** How often each endpoint answered each status (printed with FUZZ_STATS=1, to see that cases get past validation). */
const statuses = new Map<string, number>();

/** Before each endpoint: both accounts signed in with their roles, the AI platform pointed at the stand-in. */
async function restore(): Promise<Clients> {
  if (!(await stillSignedIn(admin, "admin"))) admin = await signIn("admin");
  if (!(await stillSignedIn(member, "user"))) member = await signIn("user");
  await pointPlatformAt(admin, "openai", aiFake);
  return { admin, member, anonymous };
}

async function fuzz(
  endpoints: EndpointShape[],
  casesEach: number,
  salt: number,
  prepare: () => Promise<Clients>,
  logs: string[] = logLines,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [index, endpoint] of endpoints.entries()) {
    const name = `${endpoint.method} ${endpoint.path}`;
    // FUZZ_ONLY narrows the contract endpoints; the self-check's probe always runs.
    if (ONLY && ONLY !== name && !endpoint.path.startsWith("/api/probe/")) continue;
    const clients = await prepare();
    const r = seededRandom(SEED + salt + index * 7919);
    for (let i = 0; i < casesEach; i++) {
      const as = endpoint.path.startsWith("/api/admin/")
        ? r.pick(["admin", "admin", "admin", "member", "anonymous"])
        : r.pick(["admin", "member", "member", "anonymous"]);
      const client = as === "admin" ? clients.admin : as === "member" ? clients.member : clients.anonymous;
      const options = buildCase(endpoint, r, realIds, protect);
      // A token's endpoint: the signed-in roles call it with their token, so the cases reach past the access check.
      const token = endpoint.access === "token" && as !== "anonymous" ? await tokenOf(client) : null;
      if (token) options.headers = { ...options.headers, authorization: `Bearer ${token}` };
      const before = logs.length;
      const res = await client.request(options);
      statuses.set(`${name} ${res.statusCode}`, (statuses.get(`${name} ${res.statusCode}`) ?? 0) + 1);
      // A path that is not canonical answers 404 before routing, whoever asks, whatever the body.
      const oddAnswered = isOdd(String(options.url)) && res.statusCode !== 404;
      if (oddAnswered || isFinding(name, res.statusCode, res.body)) {
        const stack = logs
          .slice(before)
          .map((line) => {
            try {
              const parsed = JSON.parse(line) as { err?: { stack?: string }; msg?: string };
              return parsed.err?.stack ?? parsed.msg ?? line;
            } catch {
              return line;
            }
          })
          .join("\n")
          .slice(0, 2000);
        findings.push({
          endpoint: name,
          as,
          request: describeRequest(options),
          status: res.statusCode,
          answer: res.body.slice(0, 300),
          stack,
        });
      }
    }
  }
  return findings;
}

function report(findings: Finding[]): string {
  const kinds = new Map<string, number>();
  for (const f of findings)
    kinds.set(
      `${f.endpoint} → ${f.status} ${f.answer.slice(0, 120)}`,
      (kinds.get(`${f.endpoint} → ${f.status} ${f.answer.slice(0, 120)}`) ?? 0) + 1,
    );
  const summary = [...kinds].map(([kind, n]) => `  ${n} × ${kind}`).join("\n");
  const seen = new Set<string>();
  return (
    `${findings.length} answers were 5xx (seed ${SEED}):\n${summary}\n` +
    findings
      .filter((f) => {
        const key = `${f.endpoint} ${f.status} ${f.answer}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, 30)
      .map(
        (f) =>
          `\n[seed ${SEED}] ${f.endpoint} as ${f.as} → ${f.status} ${f.answer}\n  ${f.request}\n  ${f.stack.replaceAll("\n", "\n    ")}`,
      )
      .join("\n")
  );
}

describe(`fuzz (seed ${SEED})`, () => {
  it("the contracts list the endpoints the fuzz walks", async () => {
    const all = await contractEndpoints();
    expect(all.filter((e) => e.method !== "GET").length).toBeGreaterThan(60);
  });

  it(`no write endpoint answers 5xx to ${WRITE_CASES} hostile requests each`, async () => {
    const all = await contractEndpoints();
    // Deletes and the sign-out go last, so the other endpoints still find something to act on.
    const rank = (e: EndpointShape) => (e.path === "/api/logout" ? 2 : e.method === "DELETE" ? 1 : 0);
    const writes = all
      .filter((e) => e.method !== "GET")
      .sort((a, b) => rank(a) - rank(b) || `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
    const findings = await fuzz(writes, WRITE_CASES, 0, restore);
    expect(findings.length, report(findings)).toBe(0);
  }, 240_000);

  it(`no read endpoint answers 5xx to ${READ_CASES} hostile paths, queries and headers each`, async () => {
    const all = await contractEndpoints();
    const reads = all.filter((e) => e.method === "GET").sort((a, b) => a.path.localeCompare(b.path));
    const findings = await fuzz(reads, READ_CASES, 1, restore);
    expect(findings.length, report(findings)).toBe(0);
  }, 120_000);

  it("counts any 500, and a 502/503/504 unless an outside-service endpoint says what is unavailable", () => {
    const unavailable = JSON.stringify({ message: "No AI platform is set up yet." });
    expect(isFinding("POST /api/ai/chat", 503, unavailable)).toBe(false);
    expect(isFinding("POST /api/admin/ai-platforms/:id/test", 502, unavailable)).toBe(true); // a connection test answers 422 when it fails
    expect(isFinding("POST /api/ai/chat", 400, "{}")).toBe(false);
    expect(isFinding("POST /api/ai/chat", 500, unavailable)).toBe(true);
    expect(isFinding("POST /api/ai/chat", 503, JSON.stringify({ message: GENERIC_5XX }))).toBe(true);
    expect(isFinding("POST /api/courses", 503, unavailable)).toBe(true);
    expect(isFinding("POST /api/courses", 500, "not json")).toBe(true);
  });

  it("finds and reports a 5xx: a probe route that fails on hostile bodies is caught, with its request and stack", async () => {
    const lines: string[] = [];
    const probe = Fastify({ logger: { level: "error", stream: { write: (line: string) => void lines.push(line) } } });
    await probe.register(errorHandlerPlugin);
    const probeEndpoint = { method: "POST", path: "/api/probe/:id", access: "public", response: z.null() } as const satisfies EndpointShape;
    probe.post("/api/probe/:id", async (request) => {
      const body = request.body as { title?: unknown } | null;
      // A bug of the kind the fuzz hunts: trusts the body's shape.
      return { length: (body as { title: string }).title.length };
    });
    await probe.ready();
    const clients = { admin: new CookieClient(probe), member: new CookieClient(probe), anonymous: new CookieClient(probe) };
    const findings = await fuzz([probeEndpoint], 50, 2, async () => clients, lines);
    await probe.close();
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]).toMatchObject({ endpoint: "POST /api/probe/:id", status: 500 });
    expect(findings[0]?.request).toMatch(/^POST \/api\/probe\//);
    expect(findings[0]?.stack).toMatch(/TypeError/);
    expect(report(findings)).toContain(`seed ${SEED}`);
  });
});
