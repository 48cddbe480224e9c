import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authApi as api } from "../../../shared/contracts/auth.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { clearSessionCookie, setSessionCookie } from "../../plugins/session.js";
import { publicOrigin } from "../email/product-emails.js";
import { toPublicUser } from "../sessions/public-user.js";
import { assertIpBudget } from "./login-throttle.js";
import { authenticate, endSession, registerUser, startSession } from "./service.js";

export async function authRoutes(app: FastifyInstance) {
  const { db, sessions, counters, config } = app.ctx;
  const loginUrl = `${publicOrigin(config)}/login`;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number) {
    const session = await startSession({ sessions, previousSessionId: request.sessionId, userId, meta: requestMeta(request) });
    setSessionCookie(request, reply, session.token, session.absoluteExpiresAt);
  }

  route(app, api.register, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await registerUser({ db, input: request.body, meta, loginUrl, log });
    await signIn(request, reply, user.id);
    return toPublicUser(user);
  });

  route(app, api.login, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const user = await authenticate({ db, counters, input: request.body, meta });
    await signIn(request, reply, user.id);
    return toPublicUser(user);
  });

  route(app, api.logout, async (request, reply) => {
    await endSession({ db, sessions, who: request.user, sessionId: request.sessionId, meta: requestMeta(request) });
    clearSessionCookie(request, reply);
    return { message: "You have been successfully logged out." };
  });
}
