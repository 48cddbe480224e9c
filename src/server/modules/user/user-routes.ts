import type { FastifyInstance } from "fastify";
import { userApi as api } from "../../../shared/contracts/user.js";
import { sessionToken } from "../../lib/access.js";
import { requestMeta } from "../../lib/request-meta.js";
import { route } from "../../lib/route.js";
import { toPublicUser } from "../sessions/public-user.js";
import { changePassword, updateProfile } from "./user-service.js";

export async function userRoutes(app: FastifyInstance) {
  const { db, sessions, counters } = app.ctx;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  route(app, api.me, async (request) => toPublicUser(request.user));

  // The session probe: 200 either way, so a signed-out page logs no error; a cookie that signs in nobody is told why
  // its session ended, when the server knows (decision 061).
  route(app, api.session, async (request) => {
    if (request.user) return { user: toPublicUser(request.user) };
    const token = sessionToken(request);
    const ended = token ? await sessions.endedReason(token) : null;
    return ended ? { user: null, ended } : { user: null };
  });

  route(app, api.updateProfile, async (request) =>
    toPublicUser(await updateProfile({ db, sessions, who: request.user, input: request.body })),
  );

  route(app, api.changePassword, async (request) => {
    const who = request.user;
    await changePassword({
      db,
      sessions,
      counters,
      who,
      sessionId: request.sessionId,
      meta: requestMeta(request),
      input: request.body,
      log,
    });
    return { message: "Password updated" };
  });
}
