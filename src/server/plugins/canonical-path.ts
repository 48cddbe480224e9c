import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { NOT_CANONICAL_MESSAGE, NOT_CANONICAL_PATH } from "../lib/canonical-path.js";

/**
 * The answer to a path that is not in canonical form (`lib/canonical-path.ts`): Fastify's `rewriteUrl` sends
 * it, before routing, to the one route that answers 404; this plugin's hook, the app's first, answers it
 * before any other hook (the cross-site check, cookies), any body parsing or any handler runs.
 */
export const canonicalPathPlugin = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    if (request.routeOptions.url === NOT_CANONICAL_PATH) {
      reply.status(404).send({ message: NOT_CANONICAL_MESSAGE });
      return;
    }
    done();
  });
  app.all(NOT_CANONICAL_PATH, (_request, reply) => {
    reply.status(404).send({ message: NOT_CANONICAL_MESSAGE });
  });
});
