import type { FastifyInstance } from "fastify";
import { catalogApi as api } from "../../../shared/contracts/catalog.js";
import { route } from "../../lib/route.js";
import { getCatalogCourse, getCatalogCover, getCatalogPreview, listCatalog } from "./catalog-service.js";

/** The public course catalogue (issue 33): anyone, signed in or not. */
export async function catalogRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, api.list, async (request) => listCatalog({ db, query: request.query }));
  route(app, api.get, async (request) => getCatalogCourse({ db, slug: request.params.slug }));
  route(app, api.preview, async (request) => getCatalogPreview({ db, slug: request.params.slug }));
  route(app, api.cover, async (request, reply) => {
    const file = await getCatalogCover({ db, slug: request.params.slug });
    return reply
      .header("Content-Type", file.mimeType)
      .header("Cache-Control", "public, max-age=300")
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .send(Buffer.from(file.data));
  });
}
