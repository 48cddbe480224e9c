import type { FastifyInstance, FastifyReply } from "fastify";
import { catalogCoverPath } from "../../../shared/catalog-slug.js";
import { catalogApi as api, catalogSlugParamsSchema } from "../../../shared/contracts/catalog.js";
import { route } from "../../lib/route.js";
import { getCatalogCourse, getCatalogCover, getCatalogPreview, listCatalog } from "./catalog-service.js";

/** The public course catalogue (issue 33): anyone, signed in or not. */
export async function catalogRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, api.list, async (request) => listCatalog({ db, query: request.query }));
  route(app, api.get, async (request) => getCatalogCourse({ db, slug: request.params.slug }));
  route(app, api.preview, async (request) => getCatalogPreview({ db, slug: request.params.slug }));
  const sendCover = async (slug: string, reply: FastifyReply) => {
    const file = await getCatalogCover({ db, slug });
    return reply
      .header("Content-Type", file.mimeType)
      .header("Cache-Control", "public, max-age=300")
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .send(Buffer.from(file.data));
  };
  route(app, api.cover, async (request, reply) => sendCover(request.params.slug, reply));
  // The same bytes where crawlers may fetch them (robots.txt allows /catalog): the pages' og:image (decision 060). Not an
  // API endpoint, so no contract: a slug of another shape is the not-found any other missing image is.
  app.get<{ Params: { slug: string } }>(catalogCoverPath(":slug"), async (request, reply) => {
    const params = catalogSlugParamsSchema.safeParse(request.params);
    if (!params.success) return reply.code(404).type("text/plain").send("Not found");
    return sendCover(params.data.slug, reply);
  });
}
