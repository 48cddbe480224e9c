import { APICallError } from "ai";
import { AppError } from "../lib/app-error.js";

const FIX_KEY = "An administrator can check it under Admin > AI Chat Settings.";

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause && APICallError.isInstance(cause)) return cause.statusCode;
  return undefined;
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; message?: string; cause?: { name?: string } } | undefined;
  return e?.name === "TimeoutError" || e?.cause?.name === "TimeoutError" || /timeout of \d+ms exceeded/i.test(e?.message ?? "");
}

function isUnreachable(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|fetch failed|Cannot connect/i.test(text);
}

/**
 * Turns whatever a provider call threw into a message a person can act on and
 * the status that says whose fault it is (never the provider's raw body).
 */
export function toProviderError(error: unknown, platformName: string, model: string): AppError {
  if (error instanceof AppError) return error;
  if (isTimeout(error)) return new AppError("GATEWAY_TIMEOUT", `${platformName} took too long to answer. Please try again.`);
  const status = statusOf(error);
  if (status === 401 || status === 403) {
    return new AppError("BAD_GATEWAY", `${platformName} refused the API key. ${FIX_KEY}`);
  }
  if (status === 429) {
    const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
    const retryAfter = Number(headers?.["retry-after"]);
    return new AppError("TOO_MANY_REQUESTS", `${platformName} is rate limiting requests. Please wait a moment and try again.`, {
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : 5,
    });
  }
  if (status === 404) return new AppError("BAD_GATEWAY", `${platformName} does not know the model "${model}". ${FIX_KEY}`);
  if (status === 400 || status === 422) {
    return new AppError("BAD_GATEWAY", `${platformName} refused the request. Try a shorter message or another model.`);
  }
  if (status !== undefined && status >= 500) {
    return new AppError("BAD_GATEWAY", `${platformName} had a problem answering. Please try again in a moment.`);
  }
  if (isUnreachable(error)) return new AppError("UNAVAILABLE", `${platformName} cannot be reached right now. Please try again later.`);
  return new AppError("BAD_GATEWAY", `${platformName} stopped answering unexpectedly. Please try again.`);
}
