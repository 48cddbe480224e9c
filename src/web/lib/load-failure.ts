import { isApiError } from "./api-client.js";

export type LoadFailure = "missing" | "forbidden" | "failed";

/** How a failed read is shown: 404 and 403 have their own views; anything else offers Retry. */
export function loadFailure(error: unknown): LoadFailure | null {
  if (!error) return null;
  if (isApiError(error) && error.status === 404) return "missing";
  if (isApiError(error) && error.status === 403) return "forbidden";
  return "failed";
}
