import type { FastifyInstance } from "fastify";
import { filesApi } from "../../../shared/contracts/knowledge.js";
import { downloadBody } from "../../lib/download-stream.js";
import { route } from "../../lib/route.js";
import { uploadScope } from "../../lib/upload-scope.js";
import { deleteFile, getFile, listFiles, readFileContent, retryFile, updateFile, uploadFile } from "./files-service.js";
import { readFileUpload } from "./read-file-upload.js";
import { fileByteCap, readFileLimits, tooLargeError } from "./storage-limits.js";

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266): a plain fallback and the exact name. */
function disposition(type: "attachment" | "inline", name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The knowledge library's files (issue 30): upload, list, read, rename or move, delete, the bytes, retry. */
export async function filesRoutes(app: FastifyInstance) {
  const { db, fileStore } = app.ctx;
  const log = (message: string, error: unknown) => app.log.error({ err: error }, message);

  await uploadScope(app, (scope) =>
    route(scope, filesApi.upload, async (request) => {
      const who = request.user;
      // The plan's largest file, read before the body: the bytes are counted against it as they come in.
      const limits = await readFileLimits(db, who.id);
      const upload = await readFileUpload(request, fileByteCap(limits), () => tooLargeError(limits));
      return uploadFile({ db, who, fileStore, ...upload, log });
    }),
  );
  route(app, filesApi.list, async (request) => listFiles({ db, who: request.user, query: request.query }));
  route(app, filesApi.get, async (request) => getFile({ db, who: request.user, id: request.params.id }));
  route(app, filesApi.update, async (request) => updateFile({ db, who: request.user, id: request.params.id, input: request.body }));
  route(app, filesApi.delete, async (request) => {
    await deleteFile({ db, who: request.user, fileStore, id: request.params.id, log });
  });
  route(app, filesApi.content, async (request, reply) => {
    const file = await readFileContent({ db, who: request.user, fileStore, id: request.params.id });
    const textual = file.mimeType.startsWith("text/") || file.mimeType === "application/json";
    return (
      reply
        .header("Content-Type", textual ? `${file.mimeType}; charset=utf-8` : file.mimeType)
        .header("Content-Disposition", disposition(file.kind === "image" ? "inline" : "attachment", file.name))
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .header("Cache-Control", "private, no-cache")
        // The size up front: a download cut short (a read failing midway) is then visibly short, never a smaller file.
        .header("Content-Length", String(file.size))
        .send(downloadBody(file.body))
    );
  });
  route(app, filesApi.retry, async (request) => retryFile({ db, who: request.user, id: request.params.id }));
}
