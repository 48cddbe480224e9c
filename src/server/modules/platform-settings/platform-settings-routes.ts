import type { FastifyInstance } from "fastify";
import { platformSettingsApi as api } from "../../../shared/contracts/platform-settings.js";
import { route } from "../../lib/route.js";
import { getAdminPlatformSettings, updatePlatformSettings } from "./platform-settings-service.js";

/** Platform settings (admin): GET and PATCH /api/admin/platform-settings. The public read is in public-content. */
export async function platformSettingsRoutes(app: FastifyInstance) {
  const { db, platformDeps } = app.ctx;
  route(app, api.get, async (request) => getAdminPlatformSettings({ db, deps: platformDeps, who: request.user }));
  route(app, api.update, async (request) => updatePlatformSettings({ db, deps: platformDeps, who: request.user, input: request.body }));
}
