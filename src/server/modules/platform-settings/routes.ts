import type { FastifyInstance } from "fastify";

/** Platform settings (admin): GET and PATCH /api/admin/platform-settings. */
export async function platformSettingsRoutes(_app: FastifyInstance) {}
