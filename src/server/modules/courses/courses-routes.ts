import type { FastifyInstance } from "fastify";
import { coursesApi as api } from "../../../shared/contracts/courses.js";
import { readImageUpload } from "../../lib/read-image-upload.js";
import { route } from "../../lib/route.js";
import { uploadScope } from "../../lib/upload-scope.js";
import { createCourse, deleteCourse, getCourse, listCourses, setCover, updateCourse } from "./courses-service.js";
import { createModule, listModules } from "./modules-service.js";
import { getOutline } from "./outline-service.js";

/** Courses: any signed-in user; what each may see or change is decided by the course (access.ts). */
export async function courseRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, api.list, async (request) => listCourses({ db, who: request.user, query: request.query }));
  route(app, api.create, async (request) => createCourse({ db, who: request.user, input: request.body }));
  route(app, api.get, async (request) => getCourse({ db, who: request.user, courseId: request.params.id }));
  route(app, api.update, async (request) => updateCourse({ db, who: request.user, courseId: request.params.id, input: request.body }));
  route(app, api.remove, async (request) => deleteCourse({ db, who: request.user, courseId: request.params.id }));
  route(app, api.outline, async (request) => getOutline({ db, who: request.user, courseId: request.params.id }));
  route(app, api.modules, async (request) => listModules({ db, who: request.user, courseId: request.params.id }));
  route(app, api.createModule, async (request) =>
    createModule({ db, who: request.user, courseId: request.params.id, input: request.body }),
  );

  await uploadScope(app, (scope) =>
    route(scope, api.uploadCover, async (request) => {
      const who = request.user;
      const bytes = await readImageUpload(request, "image");
      return setCover({ db, who, courseId: request.params.id, bytes });
    }),
  );
  route(app, api.removeCover, async (request) => setCover({ db, who: request.user, courseId: request.params.id, bytes: null }));
}
