import { isDeepStrictEqual } from "node:util";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { type EndpointRequestParts, type EndpointResult, type EndpointShape, NEXT_CURSOR_HEADER } from "../../shared/contracts/endpoint.js";
import { errorBodySchema } from "../../shared/contracts/errors.js";
import { openAiErrorBodySchema } from "../../shared/contracts/openai.js";
import { accessHook } from "./access.js";
import { type JsonSchema, jsonSchemaOf } from "./json-schema.js";
import { textGuardHook } from "./text-guard.js";
import type { Who } from "./who.js";

const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();

/**
 * The JSON Schema Fastify compiles (fast-json-stringify) for an answer: what the contract names and
 * nothing else, since objects are closed (`additionalProperties: false`) and unnamed keys are dropped.
 */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = jsonSchemaOf(schema, { io: "output", target: "draft-7" }, closesAnObject);
    jsonSchemas.set(schema, json);
  }
  return json;
}

/**
 * fast-json-stringify writes only the properties an object schema names, whatever `additionalProperties`
 * says, so `false` adds nothing there; but inside an `anyOf` (a nullable object) it picks the branch by
 * validating, and `false` would turn an extra key into a 500 instead of dropping it. So it goes; schemas of
 * records (`additionalProperties: { ... }`) stay.
 */
const closesAnObject = (key: string, value: unknown) => key === "additionalProperties" && value === false;

/** What a route's failures answer: the app's `{ message, errors? }`, or OpenAI's `{ error }` (decision 051). */
export const failureSchemaOf = (endpoint: Pick<EndpointShape, "errorFormat">) =>
  endpoint.errorFormat === "openai" ? openAiErrorBodySchema : errorBodySchema;

/** The `schema.response` of a route: the success answer by its status, and the failure body for every failure. */
function responseSchemas(endpoint: EndpointShape): Record<string, unknown> {
  const failure = responseJsonSchema(failureSchemaOf(endpoint));
  const failures = { "4xx": failure, "5xx": failure };
  switch (endpoint.kind ?? "json") {
    case "empty":
      return { 204: { type: "null" }, ...failures };
    case "events":
      return {
        200: { content: { "text/event-stream": { schema: responseJsonSchema(endpoint.response) } } },
        ...(endpoint.nullIs204 ? { 204: { type: "null" } } : {}),
        ...failures,
      };
    case "file":
      return { 200: { content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }, ...failures };
    case "paged":
      return { 200: responseJsonSchema(endpoint.response), ...failures };
    default:
      return {
        [endpoint.status ?? 200]: responseJsonSchema(endpoint.response),
        ...(endpoint.nullIs204 ? { 204: { type: "null" } } : {}),
        ...failures,
      };
  }
}

/** CHECK_RESPONSES (tests): an answer the contract does not describe is a failure, not a silent coercion. */
function checkAnswer(endpoint: EndpointShape, data: unknown): void {
  const parsed = endpoint.response.safeParse(data);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new Error(`${endpoint.method} ${endpoint.path} answered outside its contract: ${where}`);
  }
}

/** The words that start the `error` event a stream ends with when it was about to send an event outside its contract. */
export const EVENT_OUTSIDE_CONTRACT = "An event outside its contract";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * CHECK_RESPONSES, on an events endpoint (set by `route()`): what is wrong with one event as it would go out,
     * or null. The event stream asks it before writing each `data:` line.
     */
    checkEvent?: (event: unknown) => string | null;
  }
}

/** Where two JSON values differ (a key only one of them has, or another value), as paths: "assistantMessage.secret". */
function differences(sent: unknown, described: unknown, path = ""): string[] {
  if (sent && described && typeof sent === "object" && typeof described === "object" && Array.isArray(sent) === Array.isArray(described)) {
    const keys = new Set([...Object.keys(sent), ...Object.keys(described)]);
    return [...keys].flatMap((key) =>
      differences((sent as Record<string, unknown>)[key], (described as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
    );
  }
  return isDeepStrictEqual(sent, described) ? [] : [path || "(root)"];
}

/**
 * CHECK_RESPONSES, one event of a stream: what goes on the wire (its JSON) must be an event of the contract exactly.
 * Stricter than `checkAnswer`: nothing serializes events by the schema, so a key the contract does not name would
 * reach the browser; it is a drift too.
 */
function eventDrift(endpoint: EndpointShape, event: unknown, schema: z.ZodType = endpoint.response): string | null {
  const where = `${EVENT_OUTSIDE_CONTRACT} (${endpoint.method} ${endpoint.path})`;
  const wire: unknown = event === undefined ? undefined : JSON.parse(JSON.stringify(event));
  const parsed = schema.safeParse(wire);
  if (!parsed.success) {
    return `${where}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")}`;
  }
  const unlike = differences(wire, parsed.data);
  return unlike.length > 0 ? `${where}: not as the contract describes it at ${unlike.join(", ")}` : null;
}

/** The signed-in user a handler sees: never null where the contract's access requires one. */
type RouteUser<E extends EndpointShape> = E["access"] extends "public" ? Who | null : Who;

export type RouteRequest<E extends EndpointShape> = FastifyRequest<EndpointRequestParts<E>> & { user: RouteUser<E> };
export type RouteHandler<E extends EndpointShape> = (request: RouteRequest<E>, reply: FastifyReply) => Promise<HandlerResult<E>>;

/** Handlers of 204, event-stream and file endpoints answer through `reply` (or return nothing for a 204). */
type HandlerResult<E extends EndpointShape> = E["kind"] extends "empty" | "events" | "file" ? unknown : EndpointResult<E> | FastifyReply;

/**
 * Registers one endpoint of the contracts: its access is enforced on the matched route (session, then the
 * contract's `access`, before the body is read), then the text guard and zod check params, query and body; the
 * answer goes through the compiled response schema; the status, the 204 and the paging header come from the
 * contract, so handlers only return data, and a handler behind `user`, `earlyAccess` or `admin` gets a
 * non-null `request.user`.
 */
export function route<E extends EndpointShape>(app: FastifyInstance, endpoint: E, handler: RouteHandler<E>): void {
  const kind = endpoint.kind ?? "json";
  const check = app.ctx.config.CHECK_RESPONSES ? (data: unknown) => checkAnswer(endpoint, data) : undefined;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      access: endpoint.access,
      endpoint,
      ...(check && kind === "events" ? { checkEvent: (event: unknown) => eventDrift(endpoint, event) } : {}),
      ...(check && endpoint.streamResponse ? { checkEvent: (event: unknown) => eventDrift(endpoint, event, endpoint.streamResponse) } : {}),
    },
    onRequest: accessHook(
      endpoint,
      () => app.ctx.sessions,
      () => app.ctx.apiTokens,
    ),
    preValidation: textGuardHook,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body && !endpoint.upload ? { body: endpoint.body } : {}),
      response: responseSchemas(endpoint),
    },
    // Fastify's compiled serializer for answers; zod (set on the app) only for what comes in.
    handler: async (request, reply) => {
      const result = await handler(request as unknown as RouteRequest<E>, reply);
      if (result === reply || reply.sent) return reply;
      if (result === null && endpoint.nullIs204) return reply.status(204).send();
      if (kind === "empty") return reply.status(204).send();
      if (kind === "paged") {
        const page = result as { items: unknown; nextCursor: string | null };
        if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
        check?.(page.items);
        return reply.status(200).send(page.items);
      }
      check?.(result);
      return reply.status(endpoint.status ?? 200).send(result);
    },
  });
}
