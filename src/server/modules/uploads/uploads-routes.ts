import type { FastifyInstance } from "fastify";
import { userApi } from "../../../shared/contracts/user.js";
import { readImageUpload } from "../../lib/read-image-upload.js";
import { route } from "../../lib/route.js";
import { uploadScope } from "../../lib/upload-scope.js";
import { toPublicUser } from "../sessions/public-user.js";
import { readUpload, removeAvatar, setAvatar } from "./uploads-service.js";

export async function uploadRoutes(app: FastifyInstance) {
  const { db, sessions } = app.ctx;

  await uploadScope(app, (scope) =>
    route(scope, userApi.uploadAvatar, async (request) => {
      const who = request.user;
      const bytes = await readImageUpload(request, "photo");
      return toPublicUser(await setAvatar({ db, sessions, who, bytes }));
    }),
  );

  route(app, userApi.removeAvatar, async (request) => toPublicUser(await removeAvatar({ db, sessions, who: request.user })));

  route(app, userApi.upload, async (request, reply) => {
    const file = await readUpload({ db, who: request.user, id: request.params.id });
    return reply
      .header("Content-Type", file.mimeType)
      .header("Cache-Control", "private, max-age=31536000, immutable")
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .send(Buffer.from(file.data));
  });
}
