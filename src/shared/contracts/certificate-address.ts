import type { EndpointShape } from "./endpoint.js";

/**
 * A certificate's verification (issue 32) as an address only, as `first-screen-reads.ts` holds the first screens':
 * `certificatesApi.verify` is built from it, and the public page `/certificates/:code` calls it through `typedAddress()`
 * without loading zod. A module of its own, so the page's chunk carries it and the first screens' shared code does not
 * (`/auth`'s 100 KiB budget).
 */
export const certificateVerifyAddress = {
  method: "GET",
  path: "/api/certificates/:code",
  access: "public",
} as const satisfies Pick<EndpointShape, "method" | "path" | "access">;
