import type { FastifyInstance } from "fastify";
import { settingsApi as api } from "../../../shared/contracts/settings.js";
import { route } from "../../lib/route.js";
import { getSettings, updateSetting } from "./settings-service.js";

export async function settingsRoutes(app: FastifyInstance) {
  const { db, platformDeps } = app.ctx;
  route(app, api.get, async (request) => getSettings({ db, who: request.user }));
  route(app, api.update, async (request) => updateSetting({ db, who: request.user, platformDeps, change: request.body }));
}
