import type { FastifyInstance } from "fastify";
import { adminUsersApi as api } from "../../../shared/contracts/admin-users.js";
import { route } from "../../lib/route.js";
import { adminOf } from "../../plugins/session.js";
import { toPublicUser } from "../sessions/public-user.js";
import { updateUserAsAdmin } from "./service.js";

export async function adminUserRoutes(app: FastifyInstance) {
  const { db, sessions } = app.ctx;
  route(app, api.update, async (request) =>
    toPublicUser(await updateUserAsAdmin({ db, sessions, who: adminOf(request), userId: request.params.id, input: request.body })),
  );
}
