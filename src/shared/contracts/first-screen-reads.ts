import type { EndpointShape } from "./endpoint.js";

/**
 * The reads every first screen makes before anything else (who is signed in, the product name and switches,
 * the price), as addresses only: method, path and who may call them, no schemas. Their contracts (`userApi.session`,
 * `publicContentApi.platformSettings`, `publicContentApi.paymentSettings`) are built from these, so the path
 * is written once; the web's first screen calls them through `typedAddress()` and so loads no zod
 * (decision 015: the public pages' 100 KiB budget).
 */
export const firstScreenReads = {
  /** The session probe: 200 with `{ user }` (null when signed out), so a visitor's page logs no 401. */
  currentUser: { method: "GET", path: "/api/session", access: "public" },
  platformSettings: { method: "GET", path: "/api/platform-settings", access: "public" },
  paymentSettings: { method: "GET", path: "/api/payment-settings", access: "public" },
} as const satisfies Record<string, Pick<EndpointShape, "method" | "path" | "access">>;

/**
 * The writes a first screen offers, as addresses only, for the same reason: signing in on /auth (decision 017)
 * and signing out from the app shell (decision 021). `authApi.login` and `authApi.logout` are built from them.
 */
export const firstScreenCalls = {
  login: { method: "POST", path: "/api/login", access: "public" },
  logout: { method: "POST", path: "/api/logout", access: "public" },
} as const satisfies Record<string, Pick<EndpointShape, "method" | "path" | "access">>;
