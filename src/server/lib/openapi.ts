import swagger from "@fastify/swagger";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import type { z } from "zod";
import { type EndpointShape, NEXT_CURSOR_HEADER } from "../../shared/contracts/endpoint.js";
import { errorBodySchema } from "../../shared/contracts/errors.js";
import { openAiErrorBodySchema } from "../../shared/contracts/openai.js";
import { SESSION_COOKIE } from "./access.js";
import { type JsonSchema, jsonSchemaOf } from "./json-schema.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The contract a route was registered from (`route()`): the OpenAPI document is written from it. */
    endpoint?: EndpointShape;
  }
}

/** A contract's zod schema as OpenAPI 3.1 reads it (JSON Schema 2020-12): what comes in (`input`) or goes out (`output`). */
export function openApiSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return jsonSchemaOf(schema, { io, target: "draft-2020-12" }, isStringKeyRule);
}

/**
 * zod writes `propertyNames: { type: "string" }` for every record: it says nothing (JSON keys are strings) and Swagger
 * UI stops drawing the page at the first one, so it goes.
 */
function isStringKeyRule(key: string, value: unknown): boolean {
  const names = value as Record<string, unknown> | null;
  return key === "propertyNames" && !!names && Object.keys(names).length === 1 && names.type === "string";
}

const ERROR_RESPONSE = (endpoint: EndpointShape) =>
  endpoint.errorFormat === "openai"
    ? {
        description: "An error, in OpenAI's shape: `{ error: { message, type, param, code } }`",
        ...openApiSchema(openAiErrorBodySchema, "output"),
      }
    : { description: "An error: `{ message, errors? }`", ...openApiSchema(errorBodySchema, "output") };

function successResponses(endpoint: EndpointShape): Record<string, unknown> {
  const status = String(endpoint.status ?? 200);
  switch (endpoint.kind ?? "json") {
    case "empty":
      return { 204: { description: "No content", type: "null" } };
    case "events":
      return {
        200: {
          description: "Server-Sent Events: each `data:` line is one JSON event",
          content: { "text/event-stream": { schema: openApiSchema(endpoint.response, "output") } },
        },
      };
    case "file":
      return { 200: { description: "A file", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } } };
    case "paged":
      return {
        200: {
          description: `One page; the next page's cursor is in the \`${NEXT_CURSOR_HEADER}\` header (absent on the last page)`,
          headers: { [NEXT_CURSOR_HEADER]: { type: "string" } },
          ...openApiSchema(endpoint.response, "output"),
        },
      };
    default:
      if (endpoint.streamResponse) {
        return {
          [status]: {
            description:
              "The whole answer (JSON); with `stream: true` in the body, Server-Sent Events: each `data:` line is one chunk, the last `data: [DONE]`",
            content: {
              "application/json": { schema: openApiSchema(endpoint.response, "output") },
              "text/event-stream": { schema: openApiSchema(endpoint.streamResponse, "output") },
            },
          },
        };
      }
      return {
        [status]: { description: "Success", ...openApiSchema(endpoint.response, "output") },
        ...(endpoint.nullIs204 ? { 204: { description: "Nothing there", type: "null" } } : {}),
      };
  }
}

/** Who may call an operation, in the words the reference shows beside it (the contract's `access`). */
const WHO_MAY_CALL: Record<EndpointShape["access"], string> = {
  public: "Anyone",
  user: "Signed-in users",
  earlyAccess: "Early Access plan",
  admin: "Admins only",
  token: "Personal API tokens only",
};

/** One route's operation, written from its contract: parameters, body, answers, access and tag. */
export function operationFromContract(endpoint: EndpointShape): FastifySchema & Record<string, unknown> {
  const tag = endpoint.errorFormat === "openai" ? "openai-compatible" : (endpoint.path.split("/")[2] ?? "api");
  return {
    tags: [tag],
    summary: WHO_MAY_CALL[endpoint.access] + (endpoint.feature ? ` (${endpoint.feature})` : ""),
    ...(endpoint.access === "public"
      ? {}
      : endpoint.access === "token"
        ? { security: [{ token: endpoint.tokenScope ? [endpoint.tokenScope] : [] }] }
        : { security: [{ session: [] }, ...(endpoint.tokenScope ? [{ token: [endpoint.tokenScope] }] : [])] }),
    ...(endpoint.params ? { params: openApiSchema(endpoint.params, "input") } : {}),
    ...(endpoint.query ? { querystring: openApiSchema(endpoint.query, "input") } : {}),
    ...(endpoint.upload
      ? { consumes: ["multipart/form-data"], body: { type: "object", properties: { file: { type: "string", format: "binary" } } } }
      : endpoint.body
        ? { body: openApiSchema(endpoint.body, "input") }
        : {}),
    response: {
      ...successResponses(endpoint),
      ...(endpoint.errorFormat === "page" ? { 303: { description: "Signed out: to the sign-in screen, which comes back here" } } : {}),
      "4XX": ERROR_RESPONSE(endpoint),
      "5XX": ERROR_RESPONSE(endpoint),
    },
  };
}

/**
 * `@fastify/swagger` collects the routes as they are registered; each `/api` route's operation is written from the
 * contract `route()` put on its config, so the document says exactly what the routes check and answer. Every other
 * route (pages, assets) is left out. Registered before the routes (it hooks `onRoute`).
 */
export async function registerOpenApi(app: FastifyInstance, info: { title: string; version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { ...info, description: "Generated from the app's contracts (src/shared/contracts): never edited by hand." },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE },
          token: { type: "http", scheme: "bearer", description: "A personal API token (Settings), for the endpoints of its scopes" },
        },
      },
    },
    hideUntagged: true,
    transform: ({ url, route }: { url: string; route: RouteOptions }) => {
      const endpoint = route.config?.endpoint;
      return { url, schema: endpoint ? operationFromContract(endpoint) : { hide: true } };
    },
  });
}
