import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.js";
import { openAiErrorBody, openAiParam } from "../lib/openai-error.js";

const GENERIC_5XX = "Something went wrong on our side. Please try again in a moment.";

/** A failure as the app decided it, before it is written in the matched route's error format. */
interface Failure {
  status: number;
  message: string;
  /** Per-field messages (a form's input), keyed by the field's dotted path. */
  errors?: Record<string, string>;
  /** The first field that was wrong, as its JSON path (`/messages/0/content`). */
  firstField?: string;
  extra?: AppError["extra"];
}

function failureOf(error: FastifyError, request: FastifyRequest): Failure {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message, extra: error.extra };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
      errors[field] ??= issue.message ?? "Invalid value";
    }
    const first = error.validation[0];
    return { status: 400, message: first?.message ?? "Invalid request", errors, firstField: first?.instancePath ?? "" };
  }
  if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError) {
    return { status: 400, message: "The request body is not valid JSON." };
  }
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || error.code === "FST_REQ_FILE_TOO_LARGE") {
    return { status: 413, message: "The request is too large." };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: error.message || "Bad request" };
  request.log.error({ err: error }, "unhandled error");
  return { status: 500, message: GENERIC_5XX };
}

/**
 * A page opened in the browser (`errorFormat: "page"`) that needs a session: the sign-in screen, which comes back here
 * once signed in (its `?next=`, kept same-site by `safeRedirectPath`; decision 060).
 */
const signInAndBack = (url: string) => `/login?next=${encodeURIComponent(url)}`;

/** The app's own shape: `{ message, errors?, reason?, opensAt? }`. */
function sendAppFailure(reply: FastifyReply, failure: Failure) {
  const { extra = {} } = failure;
  return reply.status(failure.status).send({
    message: failure.message,
    ...((failure.errors ?? extra.errors) ? { errors: failure.errors ?? extra.errors } : {}),
    ...(extra.reason ? { reason: extra.reason } : {}),
    ...(extra.opensAt ? { opensAt: extra.opensAt } : {}),
  });
}

/** OpenAI's shape, for the routes whose contract says so (the OpenAI-compatible endpoints, decision 051). */
function sendOpenAiFailure(reply: FastifyReply, failure: Failure) {
  // The field zod refused first; else the first field a service's refusal names (`AppError`'s `errors`, dotted).
  const named = Object.keys(failure.extra?.errors ?? {})[0];
  const param =
    failure.firstField !== undefined ? openAiParam(failure.firstField) : named ? openAiParam(`/${named.replaceAll(".", "/")}`) : undefined;
  const message = param && failure.firstField !== undefined ? `Invalid '${param}': ${failure.message}` : failure.message;
  return reply.status(failure.status).send(openAiErrorBody(failure.status, message, { param, limit: failure.extra?.limit }));
}

/**
 * One place that turns every failure into its answer; a 5xx never carries internals. The matched route's contract
 * picks the shape (`errorFormat`), never the URL's text: the app's `{ message }`, or OpenAI's `{ error }` on `/v1`.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = failureOf(error, request);
    if (failure.extra?.retryAfterSeconds) reply.header("Retry-After", String(failure.extra.retryAfterSeconds));
    const format = request.routeOptions?.config?.endpoint?.errorFormat;
    if (format === "page" && failure.status === 401) return reply.redirect(signInAndBack(request.url), 303);
    return format === "openai" ? sendOpenAiFailure(reply, failure) : sendAppFailure(reply, failure);
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No such endpoint: ${request.method} ${request.url.split("?")[0]}` });
  });
});
