import { APICallError } from "@ai-sdk/provider";
import { AppError } from "../lib/app-error.js";

/**
 * `RetryError.isInstance` without loading the `ai` package (it loads with the first provider call): the AI SDK
 * marks its errors with a global symbol of their name (provider-error.test.ts checks it against the real class).
 */
const RETRY_ERROR = Symbol.for("vercel.ai.error.AI_RetryError");
export function isRetryError(error: unknown): error is { lastError?: unknown } {
  return typeof error === "object" && error !== null && RETRY_ERROR in error;
}

const FIX_KEY = "An administrator can check it under Admin > AI Chat Settings.";

/** After a retry the SDK wraps the provider's answer in a RetryError: judge by the last attempt. */
function unwrap(error: unknown): unknown {
  return isRetryError(error) ? (error.lastError ?? error) : error;
}

function statusOf(error: unknown): number | undefined {
  if (APICallError.isInstance(error)) return error.statusCode;
  const cause = (error as { cause?: unknown })?.cause;
  if (cause && APICallError.isInstance(cause)) return cause.statusCode;
  return undefined;
}

/** Nobody else aborts a provider call: an abort (also one that lands in a retry's wait) is a timeout. */
function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; message?: string; cause?: { name?: string } } | undefined;
  const names = [e?.name, e?.cause?.name];
  return names.includes("TimeoutError") || names.includes("AbortError") || /timeout of \d+ms exceeded/i.test(e?.message ?? "");
}

function isUnreachable(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|fetch failed|Cannot connect/i.test(text);
}

/**
 * Turns whatever a provider call threw into a message a person can act on and
 * the status that says whose fault it is (never the provider's raw body).
 */
export function toProviderError(thrown: unknown, platformName: string, model: string): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = unwrap(thrown);
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
