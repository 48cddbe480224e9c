import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authApi as api } from "../../../shared/contracts/auth.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { clearSessionCookie, setSessionCookie } from "../../plugins/session.js";
import { logActivity } from "../activity/activity-log.js";
import { toPublicUser } from "../sessions/public-user.js";
import { assertIpBudget } from "./login-throttle.js";
import { authenticate, registerUser } from "./service.js";

export async function authRoutes(app: FastifyInstance) {
  const { db, sessions, counters } = app.ctx;

  async function startSession(request: FastifyRequest, reply: FastifyReply, userId: number) {
    // Rotation: whatever session the browser had before is ended, never upgraded.
    if (request.sessionId) await sessions.revoke(request.sessionId);
    const { token, absoluteExpiresAt } = await sessions.create(userId, requestMeta(request));
    setSessionCookie(request, reply, token, absoluteExpiresAt);
  }

  route(app, api.register, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await registerUser({ db, input: request.body, meta });
    await startSession(request, reply, user.id);
    return toPublicUser(user);
  });

  route(app, api.login, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await authenticate({ db, counters, input: request.body, meta });
    await startSession(request, reply, user.id);
    return toPublicUser(user);
  });

  route(app, api.logout, async (request, reply) => {
    if (request.sessionId && request.user) {
      await sessions.revoke(request.sessionId);
      await logActivity(db, { userId: request.user.id, action: "logout", ...requestMeta(request) });
    }
    clearSessionCookie(request, reply);
    return { message: "You have been successfully logged out." };
  });
}
