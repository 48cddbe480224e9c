import type { FastifyInstance } from "fastify";
import { aiPlatformsApi as api } from "../../../shared/contracts/ai-platforms.js";
import { route } from "../../lib/route.js";
import { adminOf, requireAdmin, requireUser } from "../../plugins/session.js";
import { createPlatform, listAdminPlatforms, listChatPlatforms, listTurnedOffPlatforms, updatePlatform } from "./service.js";
import { testPlatformConnection } from "./test-connection.js";

export async function aiPlatformRoutes(app: FastifyInstance) {
  const { db, platformDeps: deps } = app.ctx;

  route(app, api.forChat, async (request) => listChatPlatforms({ db, deps, who: requireUser(request) }));
  route(app, api.turnedOff, async (request) => {
    requireUser(request);
    return listTurnedOffPlatforms({ db, deps });
  });
  route(app, api.list, async (request) => listAdminPlatforms({ db, deps, who: requireAdmin(request) }));
  route(app, api.create, async (request) => createPlatform({ db, deps, who: adminOf(request), input: request.body }));
  route(app, api.update, async (request) =>
    updatePlatform({ db, deps, who: adminOf(request), id: request.params.id, input: request.body }),
  );
  route(app, api.test, async (request) => testPlatformConnection({ db, deps, who: adminOf(request), id: request.params.id }));
}
