import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../../shared/contracts/common.js";
import {
  approveOutlineBodySchema,
  describeCourseBodySchema,
  lessonContentBodySchema,
  outlineRequestSchema,
} from "../../../shared/contracts/courses.js";
import { requireUser } from "../../plugins/session.js";
import { describeCourse, lessonContent, proposeOutline } from "./ai/course-ai-service.js";

/** AI help for course building: Early Access or admin (the entitlements module decides), owner or admin of the course. */
export async function courseAiRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, platformDeps, courseGenerations: runs } = app.ctx;
  const params = { params: idParamsSchema };

  app.post("/api/ai/course-description", { schema: { body: describeCourseBodySchema } }, async (request) =>
    describeCourse({ db, platformDeps, who: requireUser(request) }, request.body),
  );

  app.post("/api/modules/:id/lesson-content", { schema: { ...params, body: lessonContentBodySchema } }, async (request) =>
    lessonContent({ db, platformDeps, who: requireUser(request) }, { moduleId: request.params.id, ...request.body }),
  );

  app.post("/api/courses/:id/generate/outline", { schema: { ...params, body: outlineRequestSchema } }, async (request) =>
    proposeOutline({ db, platformDeps, who: requireUser(request) }, { courseId: request.params.id, ...request.body }),
  );

  app.post("/api/courses/:id/generate/approve", { schema: { ...params, body: approveOutlineBodySchema } }, async (request, reply) =>
    reply.status(201).send(await runs.approve(requireUser(request), request.params.id, request.body.outline, request.body.hints)),
  );

  app.get("/api/courses/:id/generation", { schema: params }, async (request, reply) => {
    const run = await runs.latest(requireUser(request), request.params.id);
    return run ?? reply.status(204).send();
  });

  app.post("/api/courses/:id/generation/stop", { schema: params }, async (request, reply) => {
    const run = await runs.stop(requireUser(request), request.params.id);
    return run ?? reply.status(204).send();
  });

  app.post("/api/courses/:id/generation/resume", { schema: params }, async (request) =>
    runs.resume(requireUser(request), request.params.id),
  );
}
