import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema, idText } from "../../../shared/contracts/common.js";
import { lessonBodySchema, moveBodySchema, updateLessonBodySchema, updateModuleBodySchema } from "../../../shared/contracts/courses.js";
import { requireUser } from "../../plugins/session.js";
import {
  createLesson,
  deleteLesson,
  getLesson,
  listLessons,
  listVersions,
  moveLesson,
  restoreVersion,
  updateLesson,
} from "./lessons-service.js";
import { deleteModule, getModule, moveModule, updateModule } from "./modules-service.js";
import { setLessonCompleted } from "./outline-service.js";

const versionParams = idParamsSchema.extend({ versionId: idText });

/** Modules and lessons: every call takes its permission from the course they belong to. */
export async function lessonRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const params = { params: idParamsSchema };

  app.get("/api/modules/:id", { schema: params }, async (request) =>
    getModule({ db, who: requireUser(request), moduleId: request.params.id }),
  );
  app.patch("/api/modules/:id", { schema: { ...params, body: updateModuleBodySchema } }, async (request) =>
    updateModule({ db, who: requireUser(request), moduleId: request.params.id, input: request.body }),
  );
  app.delete("/api/modules/:id", { schema: params }, async (request, reply) => {
    await deleteModule({ db, who: requireUser(request), moduleId: request.params.id });
    return reply.status(204).send();
  });
  app.post("/api/modules/:id/move", { schema: { ...params, body: moveBodySchema } }, async (request) =>
    moveModule({ db, who: requireUser(request), moduleId: request.params.id, direction: request.body.direction }),
  );

  app.get("/api/modules/:id/lessons", { schema: params }, async (request) =>
    listLessons({ db, who: requireUser(request), moduleId: request.params.id }),
  );
  app.post("/api/modules/:id/lessons", { schema: { ...params, body: lessonBodySchema } }, async (request, reply) =>
    reply.status(201).send(await createLesson({ db, who: requireUser(request), moduleId: request.params.id, input: request.body })),
  );

  app.get("/api/lessons/:id", { schema: params }, async (request) =>
    getLesson({ db, who: requireUser(request), lessonId: request.params.id }),
  );
  app.patch("/api/lessons/:id", { schema: { ...params, body: updateLessonBodySchema } }, async (request) =>
    updateLesson({ db, who: requireUser(request), lessonId: request.params.id, input: request.body }),
  );
  app.delete("/api/lessons/:id", { schema: params }, async (request, reply) => {
    await deleteLesson({ db, who: requireUser(request), lessonId: request.params.id });
    return reply.status(204).send();
  });
  app.post("/api/lessons/:id/move", { schema: { ...params, body: moveBodySchema } }, async (request) =>
    moveLesson({ db, who: requireUser(request), lessonId: request.params.id, direction: request.body.direction }),
  );

  app.get("/api/lessons/:id/versions", { schema: params }, async (request) =>
    listVersions({ db, who: requireUser(request), lessonId: request.params.id }),
  );
  app.post("/api/lessons/:id/versions/:versionId/restore", { schema: { params: versionParams } }, async (request) =>
    restoreVersion({ db, who: requireUser(request), lessonId: request.params.id, versionId: request.params.versionId }),
  );

  app.post("/api/lessons/:id/complete", { schema: params }, async (request) =>
    setLessonCompleted({ db, who: requireUser(request), lessonId: request.params.id, completed: true }),
  );
  app.delete("/api/lessons/:id/complete", { schema: params }, async (request) =>
    setLessonCompleted({ db, who: requireUser(request), lessonId: request.params.id, completed: false }),
  );
}
