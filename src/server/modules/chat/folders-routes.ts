import type { FastifyInstance } from "fastify";
import { chatFoldersApi as api } from "../../../shared/contracts/chat-folders.js";
import { route } from "../../lib/route.js";
import { createFolder, deleteFolder, listFolders, renameFolder } from "./folders-service.js";

/** Folders of chats: owner-only (someone else's folder is a 404). */
export async function chatFolderRoutes(app: FastifyInstance) {
  const { db, generations } = app.ctx;

  route(app, api.list, async (request) => listFolders({ db, who: request.user }));
  route(app, api.create, async (request) => createFolder({ db, who: request.user, input: request.body }));
  route(app, api.rename, async (request) => renameFolder({ db, who: request.user, folderId: request.params.id, input: request.body }));
  route(app, api.remove, async (request) =>
    deleteFolder({ db, who: request.user, generations, folderId: request.params.id, mode: request.query.chats }),
  );
}
