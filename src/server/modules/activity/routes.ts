import type { FastifyInstance } from "fastify";

/** User activity (admin): the filtered log and its CSV export under /api/admin/user-activity-logs. */
export async function activityRoutes(_app: FastifyInstance) {}
