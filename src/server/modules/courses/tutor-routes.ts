import type { FastifyInstance } from "fastify";
import { lessonsApi as api } from "../../../shared/contracts/courses.js";
import { route } from "../../lib/route.js";
import { openTutor } from "./tutor-service.js";

/** A lesson's tutor chat (issue 31): made or found here, answered through the chat routes. */
export async function tutorRoutes(app: FastifyInstance) {
  const { db, platformDeps } = app.ctx;
  route(app, api.tutor, async (request) => openTutor({ db, who: request.user, platformDeps, lessonId: request.params.id }));
}
