import type { ErrorBody } from "../../shared/contracts/public-content.js";

/** A non-2xx answer. `message` is the server's human message; `status` and `body` stay for callers. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<ErrorBody>;

  constructor(status: number, message: string, body: Partial<ErrorBody>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  /** Field errors sent by the server (`{ field: message }`), or an empty object. */
  get fieldErrors(): Record<string, string> {
    return this.body.errors ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback = "Something went wrong. Please try again."): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  let body: Partial<ErrorBody> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object") body = parsed as Partial<ErrorBody>;
  } catch {
    // Not JSON: the raw text becomes the fallback message below.
  }
  const message = typeof body.message === "string" && body.message ? body.message : `${response.status}: ${text || response.statusText}`;
  return new ApiError(response.status, message, body);
}

async function send(method: string, url: string, body?: unknown): Promise<Response> {
  const isForm = body instanceof FormData;
  try {
    return await fetch(url, {
      method,
      credentials: "include",
      headers:
        body === undefined || isForm ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.", {});
  }
}

async function readJson<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One call to the API (same origin, cookies included). Throws ApiError on a non-2xx answer. */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await send(method, url, body);
  if (!response.ok) throw await toApiError(response);
  return readJson<T>(response);
}

/** Like apiRequest, with the answer's headers too (paged lists carry their next cursor in one). */
export async function apiRequestWithHeaders<T>(method: string, url: string, body?: unknown): Promise<{ data: T; headers: Headers }> {
  const response = await send(method, url, body);
  if (!response.ok) throw await toApiError(response);
  return { data: await readJson<T>(response), headers: response.headers };
}

export type On401 = "throw" | "returnNull";

/** A GET that yields null on 401 in the "returnNull" mode (used for the current user). */
export async function apiGet<T>(url: string, on401: On401 = "throw"): Promise<T | null> {
  const response = await send("GET", url);
  if (response.status === 401 && on401 === "returnNull") return null;
  if (!response.ok) throw await toApiError(response);
  return readJson<T>(response);
}
