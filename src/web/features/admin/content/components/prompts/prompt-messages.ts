import { isApiError } from "../../../../../lib/api-client.js";

/** The server's message, or "Failed to create/update/delete AI prompt". */
export function promptFailure(error: unknown, action: "create" | "update" | "delete"): string {
  if (isApiError(error) && typeof error.body.message === "string" && error.body.message) return error.body.message;
  return `Failed to ${action} AI prompt`;
}
