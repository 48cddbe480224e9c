import { queryOptions } from "@tanstack/react-query";
import { chatsApi } from "../../../shared/contracts/chat.js";
import { chatFoldersApi } from "../../../shared/contracts/chat-folders.js";
import type { CourseSources } from "../../../shared/contracts/courses.js";
import { collectionsApi, filesApi, type KnowledgeFile } from "../../../shared/contracts/knowledge.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { uploadWithProgress } from "../../lib/upload-with-progress.js";

/** The library files the "From my material" dialog lists (the newest; the library page has the rest). */
export const MATERIAL_FILES_PAGE = 200;
const POLL_MS = 1500;

/** A file is final once ready or failed; the list is read again while one is not. */
export const isSettled = (file: Pick<KnowledgeFile, "status">) => file.status === "ready" || file.status === "failed";

/** GET /api/files: the caller's library, polled every 1.5 s while a file is still being read. */
export const materialFilesQuery = () =>
  queryOptions({
    ...endpointQuery(filesApi.list, { query: { limit: MATERIAL_FILES_PAGE } }),
    refetchInterval: (query) => (query.state.data?.items.some((file) => !isSettled(file)) ? POLL_MS : false),
  });

/** GET /api/collections: the caller's collections (with their file counts). */
export const materialCollectionsQuery = endpointQuery(collectionsApi.list, {});

/** GET /api/chats/:id and GET /api/chat-folders: the chat or folder a course is made from, to name it. */
export const sourceChatQuery = (id: number) => endpointQuery(chatsApi.get, { params: { id } });
export const sourceFoldersQuery = endpointQuery(chatFoldersApi.list, {});

/** POST /api/files with no collection, its progress from 0 to 1: a file added in the dialog goes to the library. */
export function uploadMaterialFile(file: File, onProgress: (share: number) => void, signal: AbortSignal): Promise<KnowledgeFile> {
  const body = new FormData();
  body.append("file", file, file.name);
  return uploadWithProgress(filesApi.upload, { body }, (sent, total) => onProgress(total > 0 ? Math.min(1, sent / total) : 0), signal);
}

/** `/courses?new=material&chatId=12` (or `folderId`): the New Course "From my material" flow, opened with that source. */
export function sourcesFromSearch(search: string): { open: boolean; sources: Partial<CourseSources> } {
  const params = new URLSearchParams(search);
  if (params.get("new") !== "material") return { open: false, sources: {} };
  const id = (name: string) => {
    const value = Number(params.get(name));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const chatId = id("chatId");
  const folderId = id("folderId");
  return { open: true, sources: chatId ? { chatId } : folderId ? { folderId } : {} };
}
