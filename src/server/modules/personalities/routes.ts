import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema as idParams } from "../../../shared/contracts/common.js";
import { personalityBodySchema, updatePersonalityBodySchema } from "../../../shared/contracts/personalities.js";
import { requireUser } from "../../plugins/session.js";
import { entitlements } from "../entitlements/entitlements.js";
import { createPersonality, deletePersonality, getPersonality, listPersonalities, updatePersonality } from "./service.js";

/** Training personalities: owner-only, and only on the Early Access plan (admins always pass). */
export async function personalityRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const entitledUser = (request: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(request);
    entitlements.assertCanUsePersonalities(user);
    return user;
  };

  app.get("/api/personalities", async (request) => listPersonalities({ db, userId: entitledUser(request).id }));

  app.post("/api/personalities", { schema: { body: personalityBodySchema } }, async (request, reply) =>
    reply.status(201).send(await createPersonality({ db, userId: entitledUser(request).id, input: request.body })),
  );

  app.get("/api/personalities/:id", { schema: { params: idParams } }, async (request) =>
    getPersonality({ db, userId: entitledUser(request).id, id: request.params.id }),
  );

  app.patch("/api/personalities/:id", { schema: { params: idParams, body: updatePersonalityBodySchema } }, async (request) =>
    updatePersonality({ db, userId: entitledUser(request).id, id: request.params.id, input: request.body }),
  );

  app.delete("/api/personalities/:id", { schema: { params: idParams } }, async (request, reply) => {
    await deletePersonality({ db, userId: entitledUser(request).id, id: request.params.id });
    return reply.status(204).send();
  });
}
