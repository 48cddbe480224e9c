import type { FastifyInstance } from "fastify";
import { adminUsersApi as api } from "../../../shared/contracts/admin-users.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { createUserAsAdmin, deleteUserAsAdmin, updateUserAsAdmin } from "./admin-users-service.js";
import { listUsers, userSummary } from "./list-users.js";

/** User Management: every /api/admin/* call is refused to non-admins by the session plugin's hook. */
export async function adminUserRoutes(app: FastifyInstance) {
  const { db, sessions, generations, fileStore } = app.ctx;
  route(app, api.list, async (request) => listUsers({ db, query: request.query }));
  route(app, api.summary, async () => userSummary({ db }));
  route(app, api.create, async (request) => createUserAsAdmin({ db, who: request.user, input: request.body, meta: requestMeta(request) }));
  route(app, api.update, async (request) =>
    updateUserAsAdmin({
      db,
      sessions,
      who: request.user,
      meta: requestMeta(request),
      sessionId: request.sessionId,
      userId: request.params.id,
      input: request.body,
    }),
  );
  route(app, api.remove, async (request) =>
    deleteUserAsAdmin({
      db,
      sessions,
      generations,
      fileStore,
      who: request.user,
      meta: requestMeta(request),
      userId: request.params.id,
    }),
  );
}
