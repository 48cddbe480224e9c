import type { FastifyInstance } from "fastify";
import { courseAiApi as api } from "../../../shared/contracts/courses.js";
import { route } from "../../lib/route.js";
import { describeCourse, lessonContent, proposeMaterialOutline, proposeOutline, regenerateLesson } from "./ai/course-ai-service.js";

/** AI help for course building: Early Access or admin (the entitlements module decides), owner or admin of the course. */
export async function courseAiRoutes(app: FastifyInstance) {
  const { db, platformDeps, vectors, courseGenerations: runs } = app.ctx;

  route(app, api.describe, async (request) =>
    describeCourse({ db, platformDeps, who: request.user, input: request.body, log: request.log }),
  );
  route(app, api.lessonContent, async (request) =>
    lessonContent({ db, platformDeps, who: request.user, moduleId: request.params.id, input: request.body, log: request.log }),
  );
  route(app, api.proposeOutline, async (request) =>
    proposeOutline({ db, platformDeps, vectors, who: request.user, courseId: request.params.id, input: request.body, log: request.log }),
  );
  route(app, api.regenerateLesson, async (request) =>
    regenerateLesson({ db, platformDeps, vectors, who: request.user, lessonId: request.params.id, input: request.body, log: request.log }),
  );
  route(app, api.proposeMaterialOutline, async (request) =>
    proposeMaterialOutline({ db, platformDeps, vectors, who: request.user, input: request.body, log: request.log }),
  );
  route(app, api.approveMaterialOutline, async (request) => runs.approveNew({ who: request.user, input: request.body }));
  route(app, api.approveOutline, async (request) => runs.approve({ who: request.user, courseId: request.params.id, input: request.body }));

  // No run yet: null, sent as 204 No Content (the contract says nullIs204).
  route(app, api.generation, async (request) => runs.latest({ who: request.user, courseId: request.params.id }));
  route(app, api.stopGeneration, async (request) => runs.stop({ who: request.user, courseId: request.params.id }));
  route(app, api.resumeGeneration, async (request) => runs.resume({ who: request.user, courseId: request.params.id }));
}
