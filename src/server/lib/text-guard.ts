import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

/** PostgreSQL refuses NUL in text, and a lone UTF-16 surrogate is not text at all: both answer 400, never 500. */
export const BAD_TEXT = "Text cannot contain NUL characters or broken Unicode.";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const broken = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);
const MAX_DEPTH = 32;

/** The path of the first string (key or value) that cannot be stored, or null. */
export function findBrokenText(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return broken(value) ? path || "body" : null;
  // A raw body (the Stripe webhook reads bytes) is checked where it is parsed.
  if (!value || typeof value !== "object" || depth > MAX_DEPTH || ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBrokenText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (broken(key)) return at;
    const found = findBrokenText(inner, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The matched route's text check (`route()` adds it as its preValidation hook): the params, query and JSON body
 * of every API call, before its schema reads them. A callback, not a promise: no extra turn of the event loop
 * on every API call (issue 15, bench/auth-read).
 */
export function textGuardHook(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const field = findBrokenText(request.params) ?? findBrokenText(request.query) ?? findBrokenText(request.body);
  done(field ? new AppError("BAD_REQUEST", BAD_TEXT, { errors: { [field]: BAD_TEXT } }) : undefined);
}
