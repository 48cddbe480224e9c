import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { AVATAR_MAX_BYTES } from "../../shared/constants.js";

/**
 * The four routes that take a multipart upload (an avatar, a course cover, a library file, a chat import), registered in a scope of
 * their own with @fastify/multipart. Registered for the whole app, the plugin put an async onRequest hook (a
 * `close` listener on every response) and an async onResponse hook on every request, static files included,
 * for temporary files this app never saves (issue 15, bench/auth-read). Elsewhere a multipart body is a 415.
 * Each reader passes its own limits inside `readMultipart()` (`read-image-upload.ts`, `read-file-upload.ts`,
 * `read-import-body.ts`); these are the defaults of a reader that passes none: one image-sized file.
 */
export async function uploadScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
    routes(scope);
  });
}
