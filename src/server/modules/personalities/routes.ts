import type { FastifyInstance } from "fastify";
import { personalitiesApi as api } from "../../../shared/contracts/personalities.js";
import { route } from "../../lib/route.js";
import { requireUser } from "../../plugins/session.js";
import { entitlements } from "../entitlements/entitlements.js";
import { createPersonality, deletePersonality, getPersonality, listPersonalities, updatePersonality } from "./service.js";

/** Training personalities: owner-only, and only on the Early Access plan (admins always pass). */
export async function personalityRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const entitled = (request: Parameters<typeof requireUser>[0]) => {
    const who = requireUser(request);
    entitlements.assertCanUsePersonalities(who);
    return who;
  };

  route(app, api.list, async (request) => listPersonalities({ db, who: entitled(request) }));
  route(app, api.create, async (request) => createPersonality({ db, who: entitled(request), input: request.body }));
  route(app, api.get, async (request) => getPersonality({ db, who: entitled(request), id: request.params.id }));
  route(app, api.update, async (request) => updatePersonality({ db, who: entitled(request), id: request.params.id, input: request.body }));
  route(app, api.remove, async (request) => deletePersonality({ db, who: entitled(request), id: request.params.id }));
}
