import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { passwordChangeBodySchema, profileBodySchema } from "../../../shared/contracts/user.js";
import { AppError } from "../../lib/app-error.js";
import { requestMeta } from "../../lib/request-meta.js";
import { requireUser } from "../../plugins/session.js";
import { logActivity } from "../auth/activity-log.js";
import { toPublicUser } from "./public-user.js";
import { changePassword, updateProfile } from "./service.js";

const PASSWORD_TRIES = 5;
const PASSWORD_WINDOW_MS = 15 * 60_000;

export async function userRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, sessions, counters } = app.ctx;

  app.get("/api/user", async (request) => toPublicUser(requireUser(request)));

  app.patch("/api/user", { schema: { body: profileBodySchema } }, async (request) => {
    const user = requireUser(request);
    const updated = await updateProfile({ db, userId: user.id, input: request.body });
    await sessions.forgetUser(user.id);
    return toPublicUser(updated);
  });

  app.patch("/api/user/password", { schema: { body: passwordChangeBodySchema } }, async (request) => {
    const user = requireUser(request);
    // A stolen session must not become a way to guess the password.
    const key = `password-change:${user.id}`;
    const tries = await counters.peek(key);
    if (tries.count >= PASSWORD_TRIES) {
      throw new AppError("TOO_MANY_REQUESTS", "Too many wrong current passwords. Try again in 15 minutes.", {
        retryAfterSeconds: Math.ceil(tries.resetInMs / 1000),
      });
    }
    try {
      await changePassword({ db, userId: user.id, input: request.body });
    } catch (error) {
      if (error instanceof AppError && error.code === "BAD_REQUEST") await counters.hit(key, PASSWORD_WINDOW_MS);
      throw error;
    }
    await counters.reset(key);
    await sessions.revokeUserSessions(user.id, request.sessionId ?? undefined);
    await logActivity(db, { userId: user.id, action: "password_change", ...requestMeta(request) });
    return { message: "Password updated" };
  });
}
