import type { FastifyInstance } from "fastify";
import { lessonsApi as api } from "../../../shared/contracts/courses.js";
import { route } from "../../lib/route.js";
import { readLessonSource } from "./lesson-sources.js";
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

/** Modules and lessons: every call takes its permission from the course they belong to. */
export async function lessonRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, api.getModule, async (request) => getModule({ db, who: request.user, moduleId: request.params.id }));
  route(app, api.updateModule, async (request) =>
    updateModule({ db, who: request.user, moduleId: request.params.id, input: request.body }),
  );
  route(app, api.removeModule, async (request) => deleteModule({ db, who: request.user, moduleId: request.params.id }));
  route(app, api.moveModule, async (request) => moveModule({ db, who: request.user, moduleId: request.params.id, input: request.body }));

  route(app, api.list, async (request) => listLessons({ db, who: request.user, moduleId: request.params.id }));
  route(app, api.create, async (request) => createLesson({ db, who: request.user, moduleId: request.params.id, input: request.body }));

  route(app, api.get, async (request) => getLesson({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.update, async (request) => updateLesson({ db, who: request.user, lessonId: request.params.id, input: request.body }));
  route(app, api.remove, async (request) => deleteLesson({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.move, async (request) => moveLesson({ db, who: request.user, lessonId: request.params.id, input: request.body }));

  route(app, api.versions, async (request) => listVersions({ db, who: request.user, lessonId: request.params.id }));
  route(app, api.restoreVersion, async (request) =>
    restoreVersion({ db, who: request.user, lessonId: request.params.id, versionId: request.params.versionId }),
  );

  route(app, api.source, async (request) => readLessonSource({ db, who: request.user, lessonId: request.params.id, n: request.params.n }));

  route(app, api.complete, async (request) => setLessonCompleted({ db, who: request.user, lessonId: request.params.id, completed: true }));
  route(app, api.uncomplete, async (request) =>
    setLessonCompleted({ db, who: request.user, lessonId: request.params.id, completed: false }),
  );
}
