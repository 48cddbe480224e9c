import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AVATAR_MAX_BYTES } from "../../../shared/constants.js";
import { AppError } from "../../lib/app-error.js";
import { requireUser } from "../../plugins/session.js";
import { toPublicUser } from "../user/public-user.js";
import { readUpload, removeAvatar, setAvatar } from "./service.js";

export async function uploadRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, sessions } = app.ctx;

  app.post("/api/user/avatar", async (request) => {
    const user = requireUser(request);
    if (!request.isMultipart()) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the photo as multipart/form-data.");
    const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
    if (!file) throw new AppError("BAD_REQUEST", "Choose a photo to upload.");
    const bytes = await file.toBuffer().catch((error: { code?: string }) => {
      if (error.code === "FST_REQ_FILE_TOO_LARGE")
        throw new AppError("PAYLOAD_TOO_LARGE", "The photo is larger than 2 MB. Please choose a smaller one.");
      throw error;
    });
    const updated = await setAvatar({ db, userId: user.id, bytes: new Uint8Array(bytes) });
    await sessions.forgetUser(user.id);
    return toPublicUser(updated);
  });

  app.delete("/api/user/avatar", async (request) => {
    const user = requireUser(request);
    const updated = await removeAvatar({ db, userId: user.id });
    await sessions.forgetUser(user.id);
    return toPublicUser(updated);
  });

  app.get(
    "/api/uploads/:id",
    { schema: { params: z.object({ id: z.string().regex(/^[a-f0-9]{32}$/, "File not found") }) } },
    async (request, reply) => {
      requireUser(request);
      const file = await readUpload({ db, id: request.params.id });
      return reply
        .header("Content-Type", file.mimeType)
        .header("Cache-Control", "private, max-age=31536000, immutable")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(Buffer.from(file.data));
    },
  );
}
