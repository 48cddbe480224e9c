import type { FastifyInstance } from "fastify";

/** Email (admin): SMTP test, templates and their test sends, the outbox and its previews. */
export async function emailRoutes(_app: FastifyInstance) {}
