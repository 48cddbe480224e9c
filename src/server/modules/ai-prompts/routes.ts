import type { FastifyInstance } from "fastify";

/** Global AI prompts (admin): CRUD under /api/admin/global-ai-prompts. */
export async function aiPromptRoutes(_app: FastifyInstance) {}
