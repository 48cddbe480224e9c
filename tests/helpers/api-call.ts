import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type EndpointInput, type EndpointOutput, type EndpointShape, NEXT_CURSOR_HEADER } from "../../src/shared/contracts/endpoint.js";
import { type ErrorBody, errorBodySchema } from "../../src/shared/contracts/errors.js";
import { endpointUrl } from "../../src/web/lib/api-client.js";

/**
 * What a test passes for one call: the contract's own input (typed params, query and body, as the web's `call()` takes
 * them). An upload's body is the multipart payload the test built (`multipartFile`), given in `CallOptions.multipart`.
 */
export type CallInput<E extends EndpointShape> = E["upload"] extends true ? Omit<EndpointInput<E>, "body"> : EndpointInput<E>;

export interface CallOptions {
  /** Extra request headers (a bearer token, an Origin, an idempotency key). */
  headers?: Record<string, string>;
  /** An upload's multipart body and its content-type header (tests/helpers/multipart.ts). */
  multipart?: { payload: Buffer | string; headers: Record<string, string> };
  /**
   * A body the contract does not allow, sent as it is: for the refusals (a wrong type, a missing field). The input's
   * own body is ignored then.
   */
  rawBody?: unknown;
}

/**
 * One answer, read through the contract. `data` is the answer parsed by the endpoint's response schema (a paged list:
 * `{ items, nextCursor }`), and fails the test with the status and body when the call did not succeed; `error` is a
 * failure's body, parsed as every failure is written (`errorBodySchema`), and fails the test on a success.
 */
export interface Called<E extends EndpointShape> {
  readonly status: number;
  readonly headers: LightMyRequestResponse["headers"];
  readonly data: EndpointOutput<E>;
  readonly error: ErrorBody;
  /** The raw answer, for what the contract does not describe (a file's bytes, an event stream's text). */
  readonly response: LightMyRequestResponse;
}

/** Sends one request (through a cookie jar or straight to the app); answers what app.inject answers. */
export type Send = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** The request `call` sends for this endpoint and input: its method, filled path and query, and body. */
export function requestFor<E extends EndpointShape>(endpoint: E, input: CallInput<E>, options: CallOptions = {}): InjectOptions {
  const parts = input as { body?: unknown };
  // The address as the web's call() writes it.
  const url = endpointUrl(endpoint, input as EndpointInput<E>);
  const headers = { ...options.multipart?.headers, ...options.headers };
  const payload = options.multipart?.payload ?? ("rawBody" in options ? options.rawBody : parts.body);
  return { method: endpoint.method, url, headers, ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }) };
}

/** Calls `endpoint` with `input` through `send` and reads the answer through its contract. */
export async function callEndpoint<E extends EndpointShape>(
  send: Send,
  endpoint: E,
  input: CallInput<E>,
  options: CallOptions = {},
): Promise<Called<E>> {
  const request = requestFor(endpoint, input, options);
  const response = await send(request);
  const what = `${request.method} ${request.url} answered ${response.statusCode}`;
  const succeeded = response.statusCode >= 200 && response.statusCode < 300;
  return {
    status: response.statusCode,
    headers: response.headers,
    response,
    get data(): EndpointOutput<E> {
      if (!succeeded) throw new Error(`${what}: ${response.body.slice(0, 500)}`);
      return readAnswer(endpoint, response);
    },
    get error(): ErrorBody {
      if (succeeded) throw new Error(`${what}, not a failure`);
      return errorBodySchema.parse(response.json());
    },
  };
}

/** A success's answer as the contract types it, parsed by its schema. */
function readAnswer<E extends EndpointShape>(endpoint: E, response: LightMyRequestResponse): EndpointOutput<E> {
  const kind = endpoint.kind ?? "json";
  if (kind === "empty" || kind === "events" || kind === "file") return undefined as EndpointOutput<E>;
  if (response.statusCode === 204 && endpoint.nullIs204) return null as EndpointOutput<E>;
  const parsed: unknown = endpoint.response.parse(response.json());
  if (kind === "paged") {
    const cursor = response.headers[NEXT_CURSOR_HEADER];
    return { items: parsed, nextCursor: typeof cursor === "string" ? cursor : null } as EndpointOutput<E>;
  }
  return parsed as EndpointOutput<E>;
}

/** A call without cookies (a visitor, or a bearer token in `options.headers`): `callApp(t.app, chatsApi.list, {})`. */
export function callApp<E extends EndpointShape>(
  app: FastifyInstance,
  endpoint: E,
  input: CallInput<E>,
  options?: CallOptions,
): Promise<Called<E>> {
  return callEndpoint((request) => app.inject(request), endpoint, input, options);
}

/**
 * An endpoint's address with path values and a query written as they are, unchecked: for the refusals of a value the
 * contract does not allow (`rawAddress(usersApi.update, { id: "abc" })`, `rawAddress(usersApi.list, {}, "limit=0")`).
 */
export function rawAddress(endpoint: EndpointShape, params: Record<string, string | number> = {}, query = ""): string {
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  return query ? `${path}?${query}` : path;
}
