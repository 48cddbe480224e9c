import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema as idParams } from "../../../shared/contracts/common.js";
import { adminUserPatchSchema } from "../../../shared/contracts/personalities.js";
import { requireAdmin } from "../../plugins/session.js";
import { toPublicUser } from "../user/public-user.js";
import { updateUserAsAdmin } from "./service.js";

export async function adminUserRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, sessions } = app.ctx;

  app.patch("/api/admin/users/:id", { schema: { params: idParams, body: adminUserPatchSchema } }, async (request) => {
    requireAdmin(request);
    const user = await updateUserAsAdmin({ db, userId: request.params.id, input: request.body });
    // The plan rides with the cached session: drop it on every instance so the change applies at once.
    await sessions.forgetUser(user.id);
    return toPublicUser(user);
  });
}
