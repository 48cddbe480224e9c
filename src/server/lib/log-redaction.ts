/**
 * What may reach a log line (issue 14). Errors are written through one serializer that keeps only what helps a
 * reader (type, message, code, the SQL text, stack) and never the values a query carried: Drizzle puts them in
 * `params` and in its message ("params: ..."), PostgreSQL in `detail` ("Failing row contains (...)"), the AI SDK
 * in `requestBodyValues`. The request serializer drops query-string values (a reset link's token, a search).
 * Key names that hold secrets or user text are censored wherever a log call puts them.
 */
import { believedAddress } from "./trust-proxy.js";

const CENSOR = "[redacted]";
const MAX_CAUSE_DEPTH = 5;

/** The fields of a database error that name things, never values (pg `DatabaseError`, PGlite's error). */
const DATABASE_FIELDS = ["severity", "constraint", "table", "column", "schema", "dataType", "routine"] as const;

/** Keys whose value is a secret or user text, censored at any depth a log call uses (pino `redact`). */
export const SECRET_KEYS = [
  "password",
  "currentPassword",
  "newPassword",
  "confirmPassword",
  "passwordHash",
  "password_hash",
  "token",
  "apiKey",
  "secret",
  "secretKey",
  "webhookSecret",
  "smtpPass",
  "content",
  "text",
  "body",
  "params",
  "parameters",
  "requestBodyValues",
];

const HEADER_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  "headers.cookie",
  "headers.authorization",
  'headers["set-cookie"]',
  'headers["stripe-signature"]',
];

/** pino `redact` paths: the headers above, and each secret key at the top level and two levels down. */
export const REDACT_PATHS = [...HEADER_PATHS, ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`])];

/** Secrets recognisable by their shape, wherever they appear in a message or a stack. */
const SECRET_SHAPES: [RegExp, string][] = [
  [/\$argon2[a-z]*\$[^\s"')]*/gi, "[hash]"],
  [/\b(?:sk|pk|rk)[-_](?:live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{8,}/g, "[key]"],
  [/\bwhsec_[A-Za-z0-9]+/g, "[secret]"],
  [/\bBearer\s+[^\s"',]+/gi, "Bearer [redacted]"],
  [/([?&](?:token|key|api_key|apikey|secret|password)=)[^&\s"']+/gi, "$1[redacted]"],
];

export function scrubSecretShapes(text: string): string {
  let out = text;
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}

type ErrorLike = Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };

function countOf(values: unknown): number | undefined {
  return Array.isArray(values) ? values.length : undefined;
}

/** A PostgreSQL data exception (class 22) quotes the refused value: `invalid input syntax for type integer: "abc"`. */
function withoutQuotedValue(message: string, code: unknown): string {
  if (typeof code !== "string" || !code.startsWith("22")) return message;
  return message.replace(/:\s*"[\s\S]*"\s*$/, ': "[value]"');
}

/** The message without parameter values: Drizzle's "Failed query: <sql>\nparams: <values>" keeps the SQL. */
export function redactMessage(error: ErrorLike): string {
  // A plain object a caller built (`{ code, reason }`) has its text in `reason`.
  const text = error.message ?? error.reason;
  const raw = typeof text === "string" ? text : String(text ?? "");
  const paramCount = countOf(error.params);
  let message = raw;
  const query = typeof error.query === "string" ? error.query : undefined;
  const drizzleHead = query !== undefined ? `Failed query: ${query}\nparams: ` : undefined;
  if (drizzleHead && raw.startsWith(drizzleHead)) {
    message = `Failed query: ${query}\nparams: [${paramCount ?? "?"} values]`;
  } else {
    // Any other "params:" tail (a driver or a wrapper that copied the message) goes the same way.
    const at = raw.indexOf("\nparams:");
    if (at >= 0) message = `${raw.slice(0, at)}\nparams: [${paramCount ?? "?"} values]`;
  }
  return scrubSecretShapes(withoutQuotedValue(message, error.code));
}

/** The stack's frames under the redacted message (a stack starts with a copy of the message). */
function redactStack(error: ErrorLike, type: string, message: string): string | undefined {
  if (typeof error.stack !== "string") return undefined;
  const stack = error.stack;
  const raw = typeof error.message === "string" ? error.message : "";
  let frames: string;
  const at = raw ? stack.indexOf(raw) : -1;
  if (at >= 0) frames = stack.slice(at + raw.length);
  else {
    const firstFrame = stack.search(/\n\s+at /);
    frames = firstFrame >= 0 ? stack.slice(firstFrame) : "";
  }
  return scrubSecretShapes(`${type}: ${message}${frames}`);
}

function typeOf(error: ErrorLike): string {
  const ctor = (error as { constructor?: { name?: unknown } }).constructor;
  // A bundled library's class may be minified to one letter (PGlite's database error is "O").
  if (typeof ctor?.name === "string" && ctor.name.length > 2 && ctor.name !== "Object") return ctor.name;
  if (typeof error.severity === "string" && typeof error.code === "string") return "DatabaseError";
  return typeof error.name === "string" ? error.name : "Error";
}

export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * The one serializer for errors in logs (pino `serializers.err`). Keeps: type, message (SQL text, no values),
 * code, statusCode, the names a database error gives (constraint, table...), the SQL and the number of its
 * parameters, stack, and the same for each `cause` (and an AggregateError's `errors`). Everything else is dropped.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (error === null || typeof error !== "object") {
    const message = scrubSecretShapes(String(error));
    return { type: typeof error, message, stack: message };
  }
  const e = error as ErrorLike;
  const type = typeOf(e);
  const message = redactMessage(e);
  const out: SerializedError = { type, message, stack: `${type}: ${message}` };
  if (typeof e.code === "string" || typeof e.code === "number") out.code = e.code;
  if (typeof e.statusCode === "number") out.statusCode = e.statusCode;
  for (const field of DATABASE_FIELDS) if (typeof e[field] === "string") out[field] = e[field];
  if (typeof e.query === "string") out.query = scrubSecretShapes(e.query);
  const paramCount = countOf(e.params) ?? countOf(e.parameters);
  if (paramCount !== undefined) out.paramCount = paramCount;
  const stack = redactStack(e, type, message);
  if (stack) out.stack = stack;
  else delete (out as Partial<SerializedError>).stack;
  if (depth < MAX_CAUSE_DEPTH) {
    if (e.cause !== undefined && e.cause !== error) out.cause = serializeError(e.cause, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 10).map((inner) => serializeError(inner, depth + 1));
  }
  return out;
}

/** A server's address (a Redis or PostgreSQL URL) as it may be shown: its password starred, or `fallback` when it is no URL. */
export function addressWithoutPassword(url: string, fallback: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return fallback;
  }
}

/** Path and query keys, never query values (`/reset-password?token=[redacted]`). */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const keys = url
    .slice(at + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${CENSOR}`;
    });
  return `${url.slice(0, at)}?${keys.join("&")}`;
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  ips?: string[];
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's own request fields, the URL without query values; no headers, no body. */
export function serializeRequest(request: RequestLike) {
  return {
    method: request.method,
    url: typeof request.url === "string" ? redactUrl(request.url) : request.url,
    host: request.host,
    // The address the app believes (lib/request-meta.ts), never a forged X-Forwarded-For entry.
    remoteAddress: request.ips ? believedAddress(request.ips) : request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * pino writes an error logged alone (`log.error(error)`) with its raw message as `msg`, and Fastify passes
 * `error.message` as the message in a few places: those become the redacted message. Any message loses the
 * shapes of secrets.
 */
function logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
  const [first, second, ...rest] = args;
  const err = first instanceof Error ? first : first && typeof first === "object" ? (first as { err?: unknown }).err : undefined;
  const fields = first instanceof Error ? { err: first } : first;
  if (err instanceof Error && (second === undefined || second === err.message)) {
    return method.apply(this, [fields, redactMessage(err as unknown as ErrorLike), ...rest]);
  }
  return method.apply(
    this,
    args.map((arg) => (typeof arg === "string" ? scrubSecretShapes(arg) : arg)),
  );
}

/** The Fastify `logger` option: the level, these serializers and the censored keys; `stream` for tests. */
export function loggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    hooks: { logMethod },
    ...(stream ? { stream } : {}),
  };
}

/** For a plain `console.error` (boot failures): the message without values, and the same for its causes. */
export function describeError(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current !== undefined && current !== null; depth += 1) {
    const serialized = serializeError(current, MAX_CAUSE_DEPTH);
    lines.push(`${depth ? "caused by: " : ""}${String(serialized.message)}`);
    current = typeof current === "object" ? (current as ErrorLike).cause : undefined;
  }
  return lines.join("\n");
}
