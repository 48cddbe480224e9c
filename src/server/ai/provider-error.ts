import { APICallError } from "@ai-sdk/provider";
import { AppError, type AppErrorCode } from "../lib/app-error.js";

/**
 * `RetryError.isInstance` without loading the `ai` package (it loads with the first provider call): the AI SDK
 * marks its errors with a global symbol of their name (provider-error.test.ts checks it against the real class).
 */
const RETRY_ERROR = Symbol.for("vercel.ai.error.AI_RetryError");
export function isRetryError(error: unknown): error is { lastError?: unknown } {
  return typeof error === "object" && error !== null && RETRY_ERROR in error;
}

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

/** Where a provider failure is written: a request's logger (bound to its request id, `reqId`) or the app's. */
export type ProviderFailureLog = { warn(fields: Record<string, unknown>, message: string): void };

/**
 * The call that failed: the platform (its name for people, its slug for the log), the model, where to log, and who
 * reads the message: a user of the product (the default), or the admin testing the platform on AI Chat Settings.
 */
export interface ProviderCall {
  platform: { name: string; slug: string; baseUrl?: string | null };
  model: string;
  log: ProviderFailureLog;
  connectionTest?: boolean;
  /**
   * The request is the caller's as written (the OpenAI-compatible endpoint: its messages, tools and parameters), so a
   * provider's refusal of it (400, 422) is the caller's to fix: a 400, which clients do not retry, not a 502.
   */
  callerRequest?: boolean;
}

export const PROVIDER_FAILED = "AI provider call failed";

/** What went wrong, in words for the log (one per kind of failure below). */
type Reason =
  | "timeout"
  | "key refused"
  | "rate limited"
  | "unknown model"
  | "request refused"
  | "provider error"
  | "unreachable"
  | "unexpected";

/**
 * What the person reading it can do: a user is sent to an administrator; the admin testing the platform is already
 * on the page where it is fixed, so they are told what to check there.
 */
function advice(reason: Reason, call: ProviderCall): string {
  if (!call.connectionTest) {
    return reason === "key refused" || reason === "unknown model" ? " An administrator can check it under Admin > AI Chat Settings." : "";
  }
  switch (reason) {
    case "key refused":
      return " Check the API key, then test again.";
    case "unknown model":
      return " Check the model names and the default model, then test again.";
    case "unreachable":
      return call.platform.baseUrl
        ? " Check the Base URL and that the server there is running, then test again."
        : " Check that this server can reach the internet, then test again.";
    default:
      return "";
  }
}

function classify(error: unknown, call: ProviderCall): { error: AppError; reason: Reason } {
  const platformName = call.platform.name;
  const fail = (code: AppErrorCode, reason: Reason, text: string, extra?: AppError["extra"]) => ({
    error: new AppError(code, `${text}${advice(reason, call)}`, extra),
    reason,
  });
  if (isTimeout(error)) return fail("GATEWAY_TIMEOUT", "timeout", `${platformName} took too long to answer. Please try again.`);
  const status = statusOf(error);
  if (status === 401 || status === 403) return fail("BAD_GATEWAY", "key refused", `${platformName} refused the API key.`);
  if (status === 429) {
    const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
    const retryAfter = Number(headers?.["retry-after"]);
    return fail("TOO_MANY_REQUESTS", "rate limited", `${platformName} is rate limiting requests. Please wait a moment and try again.`, {
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : 5,
    });
  }
  if (status === 404) return fail("BAD_GATEWAY", "unknown model", `${platformName} does not know the model "${call.model}".`);
  if ((status === 400 || status === 422) && call.callerRequest) {
    return fail(
      "BAD_REQUEST",
      "request refused",
      `${platformName} refused the request as sent. Check its messages, tools and parameters for what this model takes.`,
    );
  }
  if (status === 400 || status === 422) {
    return fail("BAD_GATEWAY", "request refused", `${platformName} refused the request. Try a shorter message or another model.`);
  }
  if (status !== undefined && status >= 500) {
    return fail("BAD_GATEWAY", "provider error", `${platformName} had a problem answering. Please try again in a moment.`);
  }
  if (isUnreachable(error)) {
    const where = call.platform.baseUrl ? ` at ${call.platform.baseUrl}` : "";
    return call.connectionTest
      ? fail("UNAVAILABLE", "unreachable", `${platformName} could not be reached${where}.`)
      : fail("UNAVAILABLE", "unreachable", `${platformName} cannot be reached right now. Please try again later.`);
  }
  return fail("BAD_GATEWAY", "unexpected", `${platformName} stopped answering unexpectedly. Please try again.`);
}

/**
 * Turns whatever a provider call threw into a message a person can act on and the status that says whose fault it
 * is (never the provider's raw body); a connection test answers 422 (the settings tested do not work; never a 5xx).
 * This is the one place provider failures become AppErrors, so it writes the one log line about each, for an
 * operator to see why people get errors: the provider (slug), the model, the status answered, the provider's own
 * status and the kind of failure, with the request id the logger carries. Nothing the provider was sent or answered
 * (keys, prompts, bodies, messages) goes into it.
 */
export function toProviderError(thrown: unknown, call: ProviderCall): AppError {
  if (thrown instanceof AppError) return thrown;
  const error = unwrap(thrown);
  const failure = classify(error, call);
  const answer = call.connectionTest ? new AppError("UNPROCESSABLE", failure.error.message) : failure.error;
  call.log.warn(
    {
      provider: call.platform.slug,
      model: call.model,
      status: answer.statusCode,
      providerStatus: statusOf(error) ?? null,
      reason: failure.reason,
    },
    PROVIDER_FAILED,
  );
  return answer;
}
