import { DrizzleQueryError } from "drizzle-orm";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { describeError, loggerOptions, redactUrl, serializeError } from "./log-redaction.js";

const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";
const SQL = 'insert into "users" ("username", "password_hash") values ($1, $2)';

/** What PostgreSQL (pg or PGlite) throws for a refused row: the row's values sit in `detail`. */
function databaseError() {
  return Object.assign(new Error('new row for relation "users" violates check constraint "users_check"'), {
    name: "error",
    severity: "ERROR",
    code: "23514",
    detail: `Failing row contains (1, ada, ${HASH}).`,
    where: "SQL statement with ada",
    table: "users",
    constraint: "users_check",
    schema: "public",
    query: SQL,
    params: ["ada", HASH],
    queryOptions: { rowMode: "object" },
  });
}

function collect() {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
}

describe("serializeError", () => {
  it("keeps the SQL, the code and the names of a failed query, never its values", () => {
    const error = new DrizzleQueryError(SQL, ["ada", HASH], databaseError());
    const out = serializeError(error);
    const text = JSON.stringify(out);
    expect(text).not.toContain("argon2");
    expect(text).not.toContain("ada");
    expect(text).not.toContain("Failing row");
    expect(out).toMatchObject({ type: "DrizzleQueryError", query: SQL, paramCount: 2 });
    expect(out.message).toBe(`Failed query: ${SQL}\nparams: [2 values]`);
    expect(out.stack.startsWith(`DrizzleQueryError: Failed query: ${SQL}\nparams: [2 values]\n    at `)).toBe(true);
    expect(out.cause).toMatchObject({
      message: 'new row for relation "users" violates check constraint "users_check"',
      code: "23514",
      constraint: "users_check",
      table: "users",
      paramCount: 2,
    });
  });

  it("keeps a plain error whole, and its cause chain", () => {
    const error = new Error("the outbox could not reach 127.0.0.1:2525", {
      cause: Object.assign(new Error("ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    const out = serializeError(error);
    expect(out.message).toBe("the outbox could not reach 127.0.0.1:2525");
    expect(out.stack).toBe(error.stack);
    expect(out.cause).toMatchObject({ type: "Error", message: "ECONNREFUSED", code: "ECONNREFUSED" });
  });

  it("reads the text of a plain object a caller built, and scrubs it too", () => {
    expect(serializeError({ code: "23514", reason: `refused ${HASH}` })).toMatchObject({ code: "23514", message: "refused [hash]" });
    expect(serializeError("just text")).toMatchObject({ type: "string", message: "just text" });
  });

  it("drops what a provider error carries (the request body, headers, the URL) and keeps the status", () => {
    const error = Object.assign(new Error("Incorrect API key provided"), {
      name: "AI_APICallError",
      statusCode: 401,
      url: "https://api.example.com/v1/chat?key=abc",
      requestBodyValues: { messages: [{ role: "user", content: "my private question" }] },
      responseHeaders: { "set-cookie": "x=1" },
      responseBody: '{"error":"my private question"}',
    });
    const out = serializeError(error);
    expect(JSON.stringify(out)).not.toContain("private");
    expect(JSON.stringify(out)).not.toContain("key=abc");
    expect(out).toMatchObject({ message: "Incorrect API key provided", statusCode: 401 });
  });

  it("removes the value a data exception quotes, and keeps the quoted names of other errors", () => {
    const refused = serializeError(Object.assign(new Error('invalid input syntax for type integer: "my secret"'), { code: "22P02" }));
    expect(refused.message).toBe('invalid input syntax for type integer: "[value]"');
    const named = serializeError(Object.assign(new Error('relation "users" does not exist'), { code: "42P01" }));
    expect(named.message).toBe('relation "users" does not exist');
  });

  it("masks secrets recognisable by their shape in any message", () => {
    const out = serializeError(new Error(`bad ${HASH} with sk-live-abcdefghijkl and Bearer tok123 and whsec_abcdef`));
    expect(out.message).toBe("bad [hash] with [key] and Bearer [redacted] and [secret]");
  });

  it("describes a boot failure with its causes, without values", () => {
    const text = describeError(new DrizzleQueryError(SQL, ["ada", HASH], databaseError()));
    expect(text).toBe(
      `Failed query: ${SQL}\nparams: [2 values]\ncaused by: new row for relation "users" violates check constraint "users_check"`,
    );
    expect(describeError("plain")).toBe("plain");
  });
});

describe("redactUrl", () => {
  it("keeps the path and the query keys, never the query values", () => {
    expect(redactUrl("/reset-password?token=abc123&next=%2Fhome")).toBe("/reset-password?token=[redacted]&next=[redacted]");
    expect(redactUrl("/api/chats/12/messages")).toBe("/api/chats/12/messages");
  });
});

describe("the app's logger", () => {
  it("writes errors through the serializer and censors secret keys, keeping the rest", async () => {
    const { lines, stream } = collect();
    const app = Fastify({ logger: loggerOptions("info", stream) });
    const error = new DrizzleQueryError(SQL, ["ada", HASH], databaseError());
    app.log.error({ err: error }, "saving failed");
    app.log.error(error);
    app.log.info({ user: { name: "Ada", passwordHash: HASH }, password: "hunter2", apiKey: "k", body: { content: "hi" } }, "context");
    app.log.info({ req: { method: "GET", url: "/reset-password?token=abc123", headers: { cookie: "sid=abc" } } }, "request");
    await app.close();
    const all = lines.join("");
    for (const secret of ["argon2", "ada", "hunter2", '"k"', "abc123", "sid=abc", '"hi"']) expect(all).not.toContain(secret);
    const [saving, alone, context, request] = lines.map((line) => JSON.parse(line));
    expect(saving).toMatchObject({ msg: "saving failed", err: { query: SQL, paramCount: 2, cause: { code: "23514" } } });
    // pino copies a lone error's message into msg: it is the redacted one.
    expect(alone.msg).toBe(`Failed query: ${SQL}\nparams: [2 values]`);
    expect(context).toMatchObject({
      user: { name: "Ada", passwordHash: "[redacted]" },
      password: "[redacted]",
      apiKey: "[redacted]",
      body: "[redacted]",
    });
    expect(request.req).toEqual({ method: "GET", url: "/reset-password?token=[redacted]" });
  });
});
