import type { FastifyInstance } from "fastify";
import { aiPlatformsApi as api } from "../../../shared/contracts/ai-platforms.js";
import { route } from "../../lib/route.js";
import { createPlatform, listAdminPlatforms, listChatPlatforms, listTurnedOffPlatforms, updatePlatform } from "./ai-platforms-service.js";
import { testPlatformConnection } from "./test-connection.js";

export async function aiPlatformRoutes(app: FastifyInstance) {
  const { db, platformDeps: deps } = app.ctx;

  route(app, api.forChat, async (request) => listChatPlatforms({ db, deps, who: request.user }));
  route(app, api.turnedOff, async () => listTurnedOffPlatforms({ db, deps }));
  route(app, api.list, async (request) => listAdminPlatforms({ db, deps, who: request.user }));
  route(app, api.create, async (request) => createPlatform({ db, deps, who: request.user, input: request.body }));
  route(app, api.update, async (request) => updatePlatform({ db, deps, who: request.user, id: request.params.id, input: request.body }));
  route(app, api.test, async (request) => testPlatformConnection({ db, deps, who: request.user, id: request.params.id, log: request.log }));
}
