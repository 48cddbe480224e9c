import { collectionsApi, type FilePurpose, filesApi, type KnowledgeFile } from "../../../shared/contracts/knowledge.js";
import { call, endpointUrl } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { uploadWithProgress } from "../../lib/upload-with-progress.js";

/**
 * POST /api/files with no collection, for a message (`purpose=message`): the file attached to the message being
 * written stays the library's once the message is sent; left unsent, the server deletes it after a day (decision 068).
 */
export function uploadChatFile(file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<KnowledgeFile> {
  const body = new FormData();
  body.append("purpose", "message" satisfies FilePurpose);
  body.append("file", file, file.name);
  return uploadWithProgress(filesApi.upload, { body }, (sent, total) => onProgress(total > 0 ? Math.min(1, sent / total) : 0), signal);
}

/** GET /api/files/:id: where its reading stands. */
export function readChatFile(id: number, signal?: AbortSignal): Promise<KnowledgeFile> {
  return call(filesApi.get, { params: { id } }, { signal });
}

/** DELETE /api/files/:id: a file uploaded for a message and taken off it before sending. */
export function deleteChatFile(id: number): Promise<undefined> {
  return call(filesApi.delete, { params: { id } });
}

/** GET /api/files/:id/content: the bytes (an image shows inline; anything else downloads). */
export const fileContentUrl = (id: number) => endpointUrl(filesApi.content, { params: { id } });

/** GET /api/collections: the user's collections, for the chat's Knowledge dialog. */
export const collectionsQuery = endpointQuery(collectionsApi.list, {});

/** A file is final once ready or failed; until then the chip polls it. */
export const isFinal = (file: Pick<KnowledgeFile, "status">) => file.status === "ready" || file.status === "failed";
