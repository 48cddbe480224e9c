import type { EndpointShape } from "./endpoint.js";

/**
 * One chat's download (`chatTransferApi.exportOne`) as an address only, as `first-screen-reads.ts` holds the first
 * screens': the contract is built from it, and the chat header's export menu builds its links from it without loading
 * the transfer contract's schemas (decision 041: /chat's 200 KiB budget).
 */
export const chatExportAddress = {
  method: "GET",
  path: "/api/chats/:id/export",
  access: "user",
} as const satisfies Pick<EndpointShape, "method" | "path" | "access">;
