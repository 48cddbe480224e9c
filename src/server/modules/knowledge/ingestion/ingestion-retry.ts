import { embeddingErrorStatus } from "../../../ai/embed.js";

/** The wait before retry number `attempts` (1 = first retry): base, doubling, capped. */
export function retryDelayMs(attempts: number, timing: { baseDelayMs: number; maxDelayMs: number }): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(timing.baseDelayMs * 2 ** exponent, timing.maxDelayMs);
}

/** The SDK wraps a retried call's last failure; judge by that one. */
function unwrap(error: unknown): unknown {
  const last = (error as { lastError?: unknown } | null)?.lastError;
  return last ?? error;
}

/**
 * Why a file could not be indexed, in words for its owner and the log ("the embedding provider answered 500"):
 * only the kind of failure and a status, never a provider's body, a key or an address.
 */
export function describeFailure(error: unknown): string {
  const e = unwrap(error);
  const status = embeddingErrorStatus(error);
  if (status === 401 || status === 403) return "the embedding provider refused its key";
  if (status === 404) return "the embedding model was not found";
  if (status === 429) return "the embedding provider is busy";
  if (status !== undefined) return `the embedding provider answered ${status}`;
  const text = `${(e as Error | undefined)?.message ?? ""} ${String((e as { cause?: unknown } | undefined)?.cause ?? "")}`;
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|fetch failed|Cannot connect/i.test(text))
    return "the embedding provider could not be reached";
  if ((e as Error | undefined)?.name === "TimeoutError" || /timeout/i.test(text)) return "the embedding provider took too long";
  if ((e as { code?: unknown } | undefined)?.code && typeof (e as { code?: unknown }).code === "string")
    return "the database could not be reached";
  return "an unexpected error";
}
