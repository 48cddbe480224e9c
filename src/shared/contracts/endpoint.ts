import type { z } from "zod";

/**
 * One endpoint, written once: the server registers its route from this object (input validated with
 * zod, answer serialised by Fastify's compiled response schema) and the web calls it through `call()`.
 *
 * - `kind: "json"` (default): the answer is `response`, with `status` (200 unless said).
 * - `kind: "paged"`: `response` is an array; the next cursor travels in the NEXT_CURSOR_HEADER header,
 *   so the handler returns `{ items, nextCursor }` and the client gets the same.
 * - `kind: "empty"`: 204 No Content (`response` is `z.null()`).
 * - `kind: "events"`: Server-Sent Events; `response` is the schema of one event.
 * - `kind: "file"`: raw bytes (an uploaded image); `response` names nothing.
 * - `upload: true`: the body is multipart/form-data (read by the route), not JSON.
 * - `nullIs204: true`: "nothing there" (a null answer) goes out as 204 No Content and comes back as null.
 */
/** Lists that can grow without bound page with `limit` + `cursor`; the next cursor comes in this header. */
export const NEXT_CURSOR_HEADER = "x-next-cursor";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Who may call an endpoint, written on its contract and enforced by the server on the matched route
 * (`server/lib/access.ts`), never by reading the URL:
 * - `public`: anyone; the handler still sees the signed-in user when there is one (or null);
 * - `user`: a signed-in user (401 otherwise);
 * - `earlyAccess`: a signed-in user on the Early Access plan, or an admin (403 with the plan's refusal
 *   for `feature` otherwise, `shared/plan.ts`);
 * - `admin`: a signed-in admin (403 for everyone else signed in);
 * - `token`: a personal API token only (the OpenAI-compatible `/v1` endpoints, decision 051): a cookie is never read,
 *   and a request without `Authorization: Bearer` is a 401. The endpoint names its `tokenScope`.
 */
export type Access = "public" | "user" | "earlyAccess" | "admin" | "token";
/** The plan feature an `earlyAccess` endpoint belongs to: it picks the refusal's words (PLAN_REFUSALS). */
export type PlanFeature = "personalities" | "courseGeneration";
export type EndpointKind = "json" | "paged" | "empty" | "events" | "file";
/**
 * How an endpoint's failures are written: the app's `{ message, errors? }` (default), or OpenAI's
 * `{ error: { message, type, param, code } }` for the OpenAI-compatible endpoints (decision 051), or `page`: an HTML
 * page a person opens in the browser (the API reference), whose 401 sends them to sign in and back (a 303 to
 * `/login?next=<the page>`, decision 060); its other failures are the app's.
 */
export type ErrorFormat = "app" | "openai" | "page";

/**
 * What a personal API token may call (issue 35): an endpoint names the scope a token needs with `tokenScope`; an
 * endpoint without one (every admin route, the tokens themselves, sign-in...) refuses every token. `files:read` also
 * guards what other endpoints reach of the library (files, collections, their passages), wherever they reach it
 * (`server/lib/library-access.ts`, decision 056).
 */
export const TOKEN_SCOPES = ["chat", "courses:read", "models", "files:read"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface EndpointShape {
  readonly method: HttpMethod;
  /** `/api/...`, or `/v1/...` for the OpenAI-compatible endpoints (decision 051). */
  readonly path: `/api/${string}` | `/v1/${string}`;
  readonly access: Access;
  readonly feature?: PlanFeature;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  readonly status?: 200 | 201;
  readonly kind?: EndpointKind;
  readonly upload?: boolean;
  readonly nullIs204?: boolean;
  /** The scope a personal API token needs to call this endpoint; none: tokens are refused (issue 35). */
  readonly tokenScope?: TokenScope;
  /** How failures are written (`app` unless said). */
  readonly errorFormat?: ErrorFormat;
  /**
   * A JSON endpoint that also streams when its body asks (`stream: true`, OpenAI's chat completions): the schema of
   * one Server-Sent Event's `data:`; the handler writes the stream itself.
   */
  readonly streamResponse?: z.ZodType;
}

/**
 * A plain JSON (or paged) endpoint's address (method, path and kind: all `call()` reads of it) carrying its contract's types,
 * for web code that must not load the contract's schemas (`first-screen-reads.ts`). The method and path must
 * be the contract's own, or this does not compile; at run time the object holds only the address.
 */
export function typedAddress<E extends EndpointShape & { kind?: "json" | "paged"; nullIs204?: false; upload?: false }>(
  address: Pick<E, "method" | "path" | "access"> & (E["kind"] extends "paged" ? { kind: "paged" } : unknown),
): E {
  return address as E;
}

/**
 * Opens a contract record's endpoints (those `only` picks; all by default) to API tokens holding `scope`. Said once
 * per record, where the record is written: `export const chatsApi = tokenScoped("chat", { ... })`.
 */
export function tokenScoped<const R extends Record<string, EndpointShape>>(
  scope: TokenScope,
  record: R,
  only: (endpoint: EndpointShape) => boolean = () => true,
): R {
  for (const endpoint of Object.values(record)) {
    if (only(endpoint)) (endpoint as { tokenScope?: TokenScope }).tokenScope = scope;
  }
  return record;
}

/** Keeps the literal types of the object (so `call()` and `route()` know its method, path and schemas). */
export function endpoint<const E extends EndpointShape>(definition: E): E {
  return definition;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler returns: the answer as the contract names it (a page for paged lists, nothing for 204). */
export type EndpointResult<E extends EndpointShape> = E["kind"] extends "paged"
  ? { items: z.input<E["response"]>; nextCursor: string | null }
  : E["kind"] extends "empty" | "events" | "file"
    ? undefined
    : z.input<E["response"]>;

/** What the web gets back from `call()`. */
export type EndpointOutput<E extends EndpointShape> = E["kind"] extends "paged"
  ? { items: z.output<E["response"]>; nextCursor: string | null }
  : E["kind"] extends "empty" | "events" | "file"
    ? undefined
    : z.output<E["response"]>;

/** The validated request parts a handler reads. */
export interface EndpointRequestParts<E extends EndpointShape> {
  Params: Out<E["params"]>;
  Querystring: Out<E["query"]>;
  Body: E["upload"] extends true ? unknown : Out<E["body"]>;
}

type Part<K extends string, S> = S extends z.ZodType ? { [P in K]: z.input<S> } : { [P in K]?: undefined };

/** What the web passes to `call()`: only the parts the endpoint has, typed from its schemas. */
export type EndpointInput<E extends EndpointShape> = Part<"params", E["params"]> &
  (E["query"] extends z.ZodType ? { query?: In<E["query"]> } : { query?: undefined }) &
  (E["upload"] extends true ? { body: FormData } : Part<"body", E["body"]>);

/** What names one read in the cache: the params and the query, as `call()` takes them. */
export type EndpointKeyInput<E extends EndpointShape> = {
  params?: E["params"] extends z.ZodType ? z.input<E["params"]> : undefined;
  query?: E["query"] extends z.ZodType ? z.input<E["query"]> : undefined;
};

/** `/api/chats/:id/messages` + `{ id: 5 }` → `/api/chats/5/messages`. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `{ q: "x", limit: 20, cursor: undefined }` → `?q=x&limit=20` (undefined and null left out). */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
