import type { FastifyInstance } from "fastify";
import { aiPromptsApi as api } from "../../../shared/contracts/ai-prompts.js";
import { route } from "../../lib/route.js";
import { createPrompt, deletePrompt, listPrompts, updatePrompt } from "./ai-prompts-service.js";

/** Global AI prompts (admin): CRUD under /api/admin/global-ai-prompts. */
export async function aiPromptRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, api.list, async (request) => listPrompts({ db, who: request.user }));
  route(app, api.create, async (request) => createPrompt({ db, who: request.user, input: request.body }));
  route(app, api.update, async (request) => updatePrompt({ db, who: request.user, id: request.params.id, input: request.body }));
  route(app, api.remove, async (request) => deletePrompt({ db, who: request.user, id: request.params.id }));
}
