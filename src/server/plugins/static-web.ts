import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Serves the built web app (dist/web). Hashed assets are cached for a year;
 * every other GET that is not an API call gets index.html so the client router
 * can draw the page (or its 404 screen).
 */
export const staticWebPlugin = fp(async (app: FastifyInstance) => {
  const root = app.ctx.config.webDist;
  if (!existsSync(path.join(root, "index.html"))) {
    app.log.warn(`No built web app in ${root}; run "npm run build" to serve the pages.`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header("Cache-Control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  app.get("/*", async (request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api") {
      return reply.status(404).send({ message: `No such endpoint: GET ${request.url.split("?")[0]}` });
    }
    const file = request.url.split("?")[0] ?? "/";
    if (/\.[a-z0-9]+$/i.test(file) && file !== "/index.html") {
      return reply.status(404).type("text/plain").send("Not found");
    }
    reply.header("Cache-Control", "no-cache");
    return reply.sendFile("index.html");
  });
});
