import { AppError } from "./app-error.js";

/** Where a stored secret is sent: named parts (host, port, user, kind, URL...), each as saved or as asked for. */
export type SecretDestination = Record<string, string | null | undefined>;

/**
 * Two values of a destination's part name the same place: URLs compared as parsed (scheme, host in any case, port with
 * the default implied, path without a trailing slash; never the query's order or a fragment, which no secret depends on),
 * anything else trimmed and in any case; empty and missing are the same (the provider's own address).
 */
export function samePlace(a: string | null | undefined, b: string | null | undefined): boolean {
  const left = placeOf(a);
  const right = placeOf(b);
  return left === right;
}

function placeOf(value: string | null | undefined): string {
  const text = (value ?? "").trim();
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}${url.search}`;
    } catch {
      // Not a URL after all: compared as text.
    }
  }
  return text.toLowerCase();
}

/**
 * The one rule for every secret kept in the database (the SMTP password, an AI platform's API key, an MCP server's
 * header values; decision 063): it only ever goes to the destination it was saved for. A blank secret in a form means
 * "the stored one" only while every part of the destination named in `wanted` stays as `saved`; otherwise the secret must
 * be typed again, or any admin (or a stolen admin session) could point it at a server of their own, press Test, and read
 * it off the wire. A part left out of `wanted` (undefined) is not being changed.
 */
export function assertStoredSecretStaysHome(
  saved: SecretDestination,
  wanted: SecretDestination,
  refusal: { field: string; message: string },
): void {
  const moved = Object.entries(wanted).some(([part, value]) => value !== undefined && !samePlace(value, saved[part]));
  if (moved) throw new AppError("BAD_REQUEST", refusal.message, { errors: { [refusal.field]: refusal.message } });
}
