/**
 * Paths in canonical form only (issue 28). Fastify's router decodes a path before it matches it, so
 * `/%61pi/admin/x` reaches the route of `/api/admin/x`: any rule that reads the URL's text would see
 * another path than the route that runs. Access is decided on the matched route (`lib/access.ts`), and on top
 * of that every path that is not written the one way a client of ours writes it is answered 404 before routing:
 * - a percent-encoded unreserved character (RFC 3986 §2.3: letters, digits, `-`, `.`, `_`, `~`), an encoded
 *   slash or backslash, or a `%` not followed by two hex digits;
 * - a doubled slash, a backslash, or a `.` or `..` segment;
 * - `/api` in another case (`/API/`, `/Api/`).
 * Encoded reserved or non-ASCII characters (`%20`, `%C3%A9`) stay: that is their canonical form.
 */
const ENCODED_UNRESERVED_OR_SLASH = /%(?:3[0-9]|[46][1-9a-f]|[57][0-9a]|2[def]|5[cf]|7e)/i;
const BROKEN_ESCAPE = /%(?![0-9a-f]{2})/i;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
const API_PREFIX_ANY_CASE = /^\/(?:api|v1)(?=\/|$)/i;

export function isCanonicalPath(url: string): boolean {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path.charCodeAt(0) !== 47 /* / */) return false;
  if (path.includes("//") || path.includes("\\")) return false;
  if (path.includes("%") && (ENCODED_UNRESERVED_OR_SLASH.test(path) || BROKEN_ESCAPE.test(path))) return false;
  if (path.includes("/.") && DOT_SEGMENT.test(path)) return false;
  const prefix = API_PREFIX_ANY_CASE.exec(path);
  return !prefix || prefix[0] === "/api" || prefix[0] === "/v1";
}

/** Where `rewriteUrl` sends a path that is not canonical: a route that answers 404 and runs nothing else. */
export const NOT_CANONICAL_PATH = "/__not-canonical__";

export const NOT_CANONICAL_MESSAGE = "No such page or endpoint.";

/** Fastify's `rewriteUrl`: runs before routing, on every request. */
export function canonicalOnly(request: { url?: string }): string {
  const url = request.url ?? "/";
  return isCanonicalPath(url) ? url : NOT_CANONICAL_PATH;
}
