import type { FastifyInstance } from "fastify";
import { collectionsApi } from "../../../shared/contracts/knowledge.js";
import { route } from "../../lib/route.js";
import { createCollection, deleteCollection, listCollections, renameCollection } from "./collections-service.js";

/** The knowledge library's collections (issue 30), each with its file count and bytes. */
export async function collectionsRoutes(app: FastifyInstance) {
  const { db, fileStore } = app.ctx;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);
  route(app, collectionsApi.list, async (request) => listCollections({ db, who: request.user }));
  route(app, collectionsApi.create, async (request) => createCollection({ db, who: request.user, input: request.body }));
  route(app, collectionsApi.update, async (request) =>
    renameCollection({ db, who: request.user, id: request.params.id, input: request.body }),
  );
  route(app, collectionsApi.delete, async (request) => {
    await deleteCollection({ db, who: request.user, fileStore, id: request.params.id, log });
  });
}
