import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { settingsPatchSchema } from "../../../shared/contracts/settings.js";
import { requireUser } from "../../plugins/session.js";
import { getSettings, updateSetting } from "./service.js";

export async function settingsRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.get("/api/user/settings", async (request) => getSettings({ db, userId: requireUser(request).id }));

  app.patch("/api/user/settings", { schema: { body: settingsPatchSchema } }, async (request) =>
    updateSetting({ db, userId: requireUser(request).id, change: request.body }),
  );
}
