import type { FastifyInstance } from "fastify";
import { embeddingSettingsApi, knowledgeStatusApi } from "../../../shared/contracts/embedding-settings.js";
import { route } from "../../lib/route.js";
import { getEmbeddingSettings, getKnowledgeStatus, updateEmbeddingSettings } from "./embedding-settings-service.js";

/** The embedding model (admin, AI Chat Settings) and whether searches use meaning or full text (signed-in users). */
export async function embeddingSettingsRoutes(app: FastifyInstance) {
  const { db, platformDeps: deps, vectors } = app.ctx;
  route(app, embeddingSettingsApi.get, async (request) => getEmbeddingSettings({ db, who: request.user, deps, vectors }));
  route(app, embeddingSettingsApi.update, async (request) =>
    updateEmbeddingSettings({ db, who: request.user, deps, vectors, input: request.body }),
  );
  route(app, knowledgeStatusApi.get, async () => getKnowledgeStatus({ db, deps, vectors }));
}
