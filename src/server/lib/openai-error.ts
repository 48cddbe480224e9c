import type { OpenAiErrorBody } from "../../shared/contracts/openai.js";

/**
 * A failure in OpenAI's shape (`{ error: { message, type, param, code } }`), for the endpoints whose contract says
 * `errorFormat: "openai"` (decision 051): the status stays what the app decided; the type and code are the ones
 * OpenAI's clients and docs know for it, so a script's `RateLimitError`, `AuthenticationError`... are the usual ones.
 */
export function openAiErrorBody(
  status: number,
  message: string,
  details: { param?: string | null; limit?: "quota" | "rate" } = {},
): OpenAiErrorBody {
  const [type, code] = typeAndCode(status, details.limit);
  return { error: { message, type, param: details.param ?? (status === 404 ? "model" : null), code } };
}

function typeAndCode(status: number, limit: "quota" | "rate" | undefined): [string, string | null] {
  switch (status) {
    case 400:
      return ["invalid_request_error", null];
    case 401:
      return ["invalid_request_error", "invalid_api_key"];
    case 403:
      return ["permission_error", "insufficient_permissions"];
    // Every `/v1` route's only thing to be missing is the model it names (no path parameters).
    case 404:
      return ["invalid_request_error", "model_not_found"];
    case 413:
      return ["invalid_request_error", "request_too_large"];
    case 429:
      return limit === "quota" ? ["insufficient_quota", "insufficient_quota"] : ["requests", "rate_limit_exceeded"];
    case 500:
      return ["server_error", null];
    default:
      if (status >= 500) return ["api_error", status === 504 ? "timeout" : status === 503 ? "service_unavailable" : "provider_error"];
      return ["invalid_request_error", null];
  }
}

/** `/messages/0/content` (an input's JSON path, as the validator gives it) → `messages[0].content`, as OpenAI names params. */
export function openAiParam(instancePath: string): string | null {
  const segments = instancePath.split("/").filter(Boolean);
  if (segments.length === 0) return null;
  return segments.reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), "");
}
