import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Once shutdown starts, every response still being written tells the client to
 * close its keep-alive connection, so the server can finish in-flight requests
 * and exit instead of waiting on idle sockets until the grace period runs out.
 * (A callback hook, not async: it runs on every response.)
 */
export const gracefulClosePlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    app.server.closeIdleConnections();
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("Connection", "close");
    done(null, payload);
  });
});
