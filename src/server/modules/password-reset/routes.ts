import type { FastifyInstance } from "fastify";

/** Forgotten passwords: POST /api/forgot-password and POST /api/reset-password. */
export async function passwordResetRoutes(_app: FastifyInstance) {}
