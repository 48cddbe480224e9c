import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loginBodySchema, registerBodySchema } from "../../../shared/contracts/auth.js";
import { requestMeta } from "../../lib/request-meta.js";
import { clearSessionCookie, setSessionCookie } from "../../plugins/session.js";
import { toPublicUser } from "../user/public-user.js";
import { logActivity } from "./activity-log.js";
import { assertIpBudget } from "./login-throttle.js";
import { authenticate, registerUser } from "./service.js";

export async function authRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, counters } = app.ctx;

  async function startSession(
    request: Parameters<typeof setSessionCookie>[0],
    reply: Parameters<typeof setSessionCookie>[1],
    userId: number,
  ) {
    // Rotation: whatever session the browser had before is ended, never upgraded.
    if (request.sessionId) await sessions.revoke(request.sessionId);
    const { token, absoluteExpiresAt } = await sessions.create(userId, requestMeta(request));
    setSessionCookie(request, reply, token, absoluteExpiresAt);
  }

  app.post("/api/register", { schema: { body: registerBodySchema } }, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await registerUser({ db, input: request.body, meta });
    await startSession(request, reply, user.id);
    return reply.status(201).send(toPublicUser(user));
  });

  app.post("/api/login", { schema: { body: loginBodySchema } }, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await authenticate({ db, counters, input: request.body, meta });
    await startSession(request, reply, user.id);
    return toPublicUser(user);
  });

  app.post("/api/logout", async (request, reply) => {
    if (request.sessionId && request.user) {
      await sessions.revoke(request.sessionId);
      await logActivity(db, { userId: request.user.id, action: "logout", ...requestMeta(request) });
    }
    clearSessionCookie(request, reply);
    return { message: "You have been successfully logged out." };
  });
}
