import type { FastifyInstance, FastifyReply } from "fastify";
import { chatTransferApi as api } from "../../../shared/contracts/chat-transfer.js";
import { downloadBody } from "../../lib/download-stream.js";
import { route } from "../../lib/route.js";
import { uploadScope } from "../../lib/upload-scope.js";
import type { ExportDownload } from "./export-service.js";
import { exportChats } from "./export-service.js";
import { importChats } from "./import-service.js";
import { IMPORT_BODY_LIMIT, keepJsonBodyAsBytes, readImportBody, refuseLargeBody } from "./read-import-body.js";

/** `attachment; filename="chats-2025-01-02.json"`, with the UTF-8 form for browsers that read it. */
function attachment(fileName: string): string {
  return `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Sends a download as it is produced: chunked, a page at a time with back-pressure, never whole in memory (decision 070). */
function sendDownload(reply: FastifyReply, download: ExportDownload): FastifyReply {
  return reply
    .header("Content-Type", download.contentType)
    .header("Content-Disposition", attachment(download.fileName))
    .header("Cache-Control", "no-store")
    .send(downloadBody(download.body));
}

/** Export (one chat or all, JSON or Markdown) and import (this app's JSON or ChatGPT's conversations.json). */
export async function chatTransferRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  // The import alone may bring up to 50 MiB of JSON (the app's limit is 1 MiB); a larger declared body is refused unread.
  app.addHook("onRoute", (options) => {
    if (options.url !== api.import.path || options.method !== api.import.method) return;
    options.bodyLimit = IMPORT_BODY_LIMIT;
    options.preParsing = async (request) => refuseLargeBody(request);
  });

  route(app, api.exportAll, async (request, reply) =>
    sendDownload(reply, await exportChats({ db, who: request.user, format: request.query.format })),
  );
  route(app, api.exportOne, async (request, reply) =>
    sendDownload(reply, await exportChats({ db, who: request.user, format: request.query.format, chatId: request.params.id })),
  );
  await uploadScope(app, (scope) => {
    keepJsonBodyAsBytes(scope);
    route(scope, api.import, async (request) => {
      const who = request.user;
      const upload = await readImportBody(request);
      return importChats({ db, who, upload, log: (message, error) => request.log.error({ err: error }, message) });
    });
  });
}
