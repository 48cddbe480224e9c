import type { FastifyInstance } from "fastify";

/** Getting-started videos (admin): CRUD and reorder under /api/admin/getting-started-videos. */
export async function videoRoutes(_app: FastifyInstance) {}
