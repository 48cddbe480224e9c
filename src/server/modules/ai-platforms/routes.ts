import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createPlatformBodySchema, updatePlatformBodySchema } from "../../../shared/contracts/ai-platforms.js";
import { idParamsSchema as idParams } from "../../../shared/contracts/common.js";
import { requireAdmin, requireUser } from "../../plugins/session.js";
import { createPlatform, listAdminPlatforms, listChatPlatforms, updatePlatform } from "./service.js";
import { testPlatformConnection } from "./test-connection.js";

export async function aiPlatformRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, platformDeps: deps } = app.ctx;

  /** The model pickers: any signed-in user, usable platforms only, no keys. */
  app.get("/api/ai/platforms", async (request) => listChatPlatforms({ db, deps, who: requireUser(request) }));

  /** The admin page's list (spec 002 puts it outside /api/admin; it still answers only admins). */
  app.get("/api/ai-platforms", async (request) => {
    requireAdmin(request);
    return listAdminPlatforms({ db, deps });
  });

  app.post("/api/admin/ai-platforms", { schema: { body: createPlatformBodySchema } }, async (request, reply) => {
    requireAdmin(request);
    return reply.status(201).send(await createPlatform({ db, deps, input: request.body }));
  });

  app.patch("/api/admin/ai-platforms/:id", { schema: { params: idParams, body: updatePlatformBodySchema } }, async (request) => {
    requireAdmin(request);
    return updatePlatform({ db, deps, id: request.params.id, input: request.body });
  });

  app.post("/api/admin/ai-platforms/:id/test", { schema: { params: idParams } }, async (request) => {
    requireAdmin(request);
    return testPlatformConnection({ db, deps, id: request.params.id });
  });
}
