import type { FastifyError, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.js";

const GENERIC_5XX = "Something went wrong on our side. Please try again in a moment.";

/** One place that turns every failure into `{ message }`; a 5xx never carries internals. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds) reply.header("Retry-After", String(error.extra.retryAfterSeconds));
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
        ...(error.extra.reason ? { reason: error.extra.reason } : {}),
        ...(error.extra.opensAt ? { opensAt: error.extra.opensAt } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
        errors[field] ??= issue.message ?? "Invalid value";
      }
      return reply.status(400).send({ message: error.validation[0]?.message ?? "Invalid request", errors });
    }
    if (error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError) {
      return reply.status(400).send({ message: "The request body is not valid JSON." });
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || error.code === "FST_REQ_FILE_TOO_LARGE") {
      return reply.status(413).send({ message: "The request is too large." });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ message: error.message || "Bad request" });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ message: GENERIC_5XX });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No such endpoint: ${request.method} ${request.url.split("?")[0]}` });
  });
});
