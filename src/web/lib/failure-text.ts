import { isApiError } from "./api-client.js";

/** A failure's words: the server's (or the thrown) message; `fallback` (what to do next) when there is none. */
export function failureText(error: unknown, fallback?: string): string {
  if (isApiError(error)) {
    const sent = error.body.message;
    if (typeof sent === "string" && sent) return sent;
    return error.status === 0 || !fallback ? error.message : fallback;
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback ?? "Something went wrong. Please try again.";
}
