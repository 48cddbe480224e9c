import {
  type EndpointInput,
  type EndpointKeyInput,
  type EndpointOutput,
  type EndpointShape,
  fillPath,
  NEXT_CURSOR_HEADER,
  queryString,
} from "../../shared/contracts/endpoint.js";
import type { ErrorBody } from "../../shared/contracts/errors.js";

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

async function send(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const isForm = body instanceof FormData;
  try {
    return await fetch(url, {
      method,
      signal,
      credentials: "include",
      headers:
        body === undefined || isForm ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "Could not reach the server. Check your connection and try again.", {});
  }
}

async function readJson<T = unknown>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type On401 = "throw" | "returnNull";

/** Told of every 401 from an endpoint that needs a session (app/session-ended.ts sends the page to sign-in). */
let unauthorizedHandler: ((error: ApiError) => void) | null = null;

/** The one place a refused session is handled (issue 29): set once by the app. */
export function onUnauthorized(handler: ((error: ApiError) => void) | null): void {
  unauthorizedHandler = handler;
}

/** The URL of one call: the endpoint's path with its params, then its query. */
export function endpointUrl<E extends EndpointShape>(endpoint: E, input: EndpointInput<E>): string {
  const parts = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return fillPath(endpoint.path, parts.params) + queryString(parts.query);
}

export interface CallOptions {
  /** "returnNull": a 401 answers null instead of throwing (the current-user read). */
  on401?: On401;
  signal?: AbortSignal;
}

/**
 * The one way the web talks to the API: `call(chatsApi.get, { params: { id } })`.
 * Typed from the contract (input and answer); throws ApiError on a non-2xx answer.
 */
export async function call<E extends EndpointShape>(
  endpoint: E,
  input: EndpointInput<E>,
  options?: CallOptions & { on401?: "throw" },
): Promise<EndpointOutput<E>>;
export async function call<E extends EndpointShape>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions & { on401: "returnNull" },
): Promise<EndpointOutput<E> | null>;
export async function call<E extends EndpointShape>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<EndpointOutput<E> | null> {
  const response = await send(endpoint.method, endpointUrl(endpoint, input), (input as { body?: unknown }).body, options.signal);
  if (response.status === 401 && options.on401 === "returnNull") return null;
  if (!response.ok) {
    const error = await toApiError(response);
    // A public endpoint's 401 is its own answer (a wrong password at sign-in), not a session that ended.
    if (response.status === 401 && endpoint.access !== "public") unauthorizedHandler?.(error);
    throw error;
  }
  if (endpoint.kind === "paged") {
    return { items: await readJson(response), nextCursor: response.headers.get(NEXT_CURSOR_HEADER) } as EndpointOutput<E>;
  }
  if (response.status === 204 && endpoint.nullIs204) return null as EndpointOutput<E>;
  return (await readJson(response)) as EndpointOutput<E>;
}

/**
 * The query key of a read: the endpoint's method and path, then its params and query. Invalidating
 * `endpointKey(endpoint)` reaches every read of that endpoint; with params, the reads of that one resource.
 */
export function endpointKey<E extends EndpointShape>(endpoint: E, input?: EndpointKeyInput<E>) {
  const parts = input as { params?: unknown; query?: unknown } | undefined;
  const key: unknown[] = [endpoint.method, endpoint.path];
  if (parts?.params !== undefined) key.push(parts.params);
  if (parts?.query !== undefined) key.push(parts.query);
  return key;
}
