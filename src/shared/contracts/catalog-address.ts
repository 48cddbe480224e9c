import type { EndpointShape } from "./endpoint.js";

/**
 * The public catalogue's reads (issue 33) as addresses only, as `certificate-address.ts` holds the certificate check:
 * `catalogApi` is built from them, and the catalogue pages of the visitors' small app call them through
 * `typedAddress()` without loading zod (the pages' 100 KiB first-screen budget).
 */
export const catalogAddresses = {
  list: { method: "GET", path: "/api/catalog", access: "public", kind: "paged" },
  get: { method: "GET", path: "/api/catalog/:slug", access: "public" },
  preview: { method: "GET", path: "/api/catalog/:slug/preview", access: "public" },
} as const satisfies Record<string, Pick<EndpointShape, "method" | "path" | "access" | "kind">>;
