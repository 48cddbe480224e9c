import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AVATAR_MAX_BYTES } from "../../../shared/constants.js";
import { idParamsSchema, NEXT_CURSOR_HEADER } from "../../../shared/contracts/common.js";
import {
  courseListQuerySchema,
  createCourseBodySchema,
  moduleBodySchema,
  updateCourseBodySchema,
} from "../../../shared/contracts/courses.js";
import { AppError } from "../../lib/app-error.js";
import { requireUser } from "../../plugins/session.js";
import { createCourse, deleteCourse, getCourse, listCourses, setCover, updateCourse } from "./courses-service.js";
import { createModule, listModules } from "./modules-service.js";
import { getOutline } from "./outline-service.js";

export async function courseRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const params = { params: idParamsSchema };

  app.get("/api/courses", { schema: { querystring: courseListQuerySchema } }, async (request, reply) => {
    const page = await listCourses({ db, who: requireUser(request), ...request.query });
    if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return page.items;
  });

  app.post("/api/courses", { schema: { body: createCourseBodySchema } }, async (request, reply) =>
    reply.status(201).send(await createCourse({ db, who: requireUser(request), input: request.body })),
  );

  app.get("/api/courses/:id", { schema: params }, async (request) =>
    getCourse({ db, who: requireUser(request), courseId: request.params.id }),
  );

  app.patch("/api/courses/:id", { schema: { ...params, body: updateCourseBodySchema } }, async (request) =>
    updateCourse({ db, who: requireUser(request), courseId: request.params.id, input: request.body }),
  );

  app.delete("/api/courses/:id", { schema: params }, async (request, reply) => {
    await deleteCourse({ db, who: requireUser(request), courseId: request.params.id });
    return reply.status(204).send();
  });

  app.get("/api/courses/:id/outline", { schema: params }, async (request) =>
    getOutline({ db, who: requireUser(request), courseId: request.params.id }),
  );

  app.get("/api/courses/:id/modules", { schema: params }, async (request) =>
    listModules({ db, who: requireUser(request), courseId: request.params.id }),
  );

  app.post("/api/courses/:id/modules", { schema: { ...params, body: moduleBodySchema } }, async (request, reply) =>
    reply.status(201).send(await createModule({ db, who: requireUser(request), courseId: request.params.id, input: request.body })),
  );

  app.post("/api/courses/:id/cover", { schema: params }, async (request) => {
    const who = requireUser(request);
    if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the image as multipart/form-data.");
    const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
    if (!file) throw new AppError("BAD_REQUEST", "Choose an image to upload.");
    const bytes = await file.toBuffer().catch((error: { code?: string }) => {
      if (error.code === "FST_REQ_FILE_TOO_LARGE")
        throw new AppError("PAYLOAD_TOO_LARGE", "The image is larger than 2 MB. Please choose a smaller one.");
      throw error;
    });
    return setCover({ db, who, courseId: request.params.id, bytes: new Uint8Array(bytes) });
  });

  app.delete("/api/courses/:id/cover", { schema: params }, async (request) =>
    setCover({ db, who: requireUser(request), courseId: request.params.id, bytes: null }),
  );
}
