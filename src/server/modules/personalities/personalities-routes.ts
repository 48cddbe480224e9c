import type { FastifyInstance } from "fastify";
import { personalitiesApi as api } from "../../../shared/contracts/personalities.js";
import { route } from "../../lib/route.js";
import type { McpToolAccess } from "../tools/tools-service.js";
import { createPersonality, deletePersonality, getPersonality, listPersonalities, updatePersonality } from "./personalities-service.js";

/** Training personalities: owner-only; the contracts admit only the Early Access plan (admins always pass). */
export async function personalityRoutes(app: FastifyInstance, options: { mcp: McpToolAccess }) {
  const { mcp } = options;
  const { db } = app.ctx;
  route(app, api.list, async (request) => listPersonalities({ db, who: request.user }));
  route(app, api.create, async (request) => createPersonality({ db, who: request.user, input: request.body, mcp }));
  route(app, api.get, async (request) => getPersonality({ db, who: request.user, id: request.params.id }));
  route(app, api.update, async (request) => updatePersonality({ db, who: request.user, id: request.params.id, input: request.body, mcp }));
  route(app, api.remove, async (request) => deletePersonality({ db, who: request.user, id: request.params.id }));
}
