import type { FastifyInstance } from "fastify";
import { authApi as api } from "../../../shared/contracts/auth.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { clearSessionCookie, readDeviceCookie } from "../../plugins/session.js";
import { toPublicUser } from "../sessions/public-user.js";
import { authenticate, endSession } from "./auth-service.js";
import { readDeviceToken } from "./device-cookie.js";
import { assertIpBudget } from "./login-throttle.js";
import { signIn } from "./sign-in.js";

/** Sign-in and sign-out (registration, free or paid, is in modules/registration). */
export async function authRoutes(app: FastifyInstance) {
  const { db, sessions, counters, secrets } = app.ctx;

  route(app, api.login, async (request, reply) => {
    const meta = requestMeta(request);
    await assertIpBudget(counters, meta.ip);
    const knownDevice = readDeviceToken(secrets, readDeviceCookie(request));
    const user = await authenticate({ db, counters, input: request.body, meta, knownDevice });
    await signIn(request, reply, sessions, user.id);
    return toPublicUser(user);
  });

  route(app, api.logout, async (request, reply) => {
    await endSession({ db, sessions, who: request.user, sessionId: request.sessionId, meta: requestMeta(request) });
    clearSessionCookie(request, reply);
    return { message: "You have been successfully logged out." };
  });
}
