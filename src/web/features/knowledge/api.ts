import { infiniteQueryOptions, type QueryClient, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { knowledgeStatusApi } from "../../../shared/contracts/embedding-settings.js";
import { type Collection, collectionsApi, filesApi, type KnowledgeFile } from "../../../shared/contracts/knowledge.js";
import { usageQuery } from "../../domain/usage.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { uploadWithProgress } from "../../lib/upload-with-progress.js";

/** Files per page of the list ("Load more" reads the next). */
export const FILES_PAGE = 50;

/** A file is final once ready or failed: the list is read again every 1.5 s only while one is not. */
export const isFinal = (file: KnowledgeFile) => file.status === "ready" || file.status === "failed";
const POLL_MS = 1500;

export const collectionsQuery = endpointQuery(collectionsApi.list, {});

/** Whether searches use meaning (an embedding model and pgvector) or only words: the page says which. */
export const knowledgeStatusQuery = endpointQuery(knowledgeStatusApi.get, {});

/** GET /api/files, all of them or one collection's, newest first, a page at a time (the next cursor comes in x-next-cursor). */
export const filesQuery = (collectionId: number | null) => {
  const query = { limit: FILES_PAGE, ...(collectionId === null ? {} : { collectionId }) };
  return infiniteQueryOptions({
    queryKey: endpointKey(filesApi.list, { query }),
    queryFn: ({ pageParam, signal }) => call(filesApi.list, { query: { ...query, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
};

/** The files of the list's pages, polled (every page read again) while one shown is being read. */
export function useFiles(collectionId: number | null) {
  return useInfiniteQuery({
    ...filesQuery(collectionId),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((file) => !isFinal(file))) ? POLL_MS : false),
  });
}

/** After a change to files: every files list, the collections' counts and the storage meter are read again. */
function refreshLibrary(client: QueryClient) {
  void client.invalidateQueries({ queryKey: endpointKey(filesApi.list) });
  void client.invalidateQueries({ queryKey: collectionsQuery.queryKey });
  void client.invalidateQueries({ queryKey: usageQuery.queryKey });
}

/** POST /api/files with its progress (0 to 1). */
export function uploadFile(file: File, collectionId: number | null, onProgress: (share: number) => void, signal?: AbortSignal) {
  const body = new FormData();
  if (collectionId !== null) body.append("collectionId", String(collectionId));
  body.append("file", file, file.name);
  return uploadWithProgress(filesApi.upload, { body }, (sent, total) => onProgress(total > 0 ? sent / total : 0), signal);
}

export function useRefreshLibrary() {
  const client = useQueryClient();
  return () => refreshLibrary(client);
}

export function useUpdateFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: { name?: string; collectionId?: number | null } }) =>
      call(filesApi.update, { params: { id }, body }),
    onSuccess: () => refreshLibrary(client),
  });
}

export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: number) => call(filesApi.delete, { params: { id } }), onSuccess: () => refreshLibrary(client) });
}

export function useRetryFile() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: number) => call(filesApi.retry, { params: { id } }), onSuccess: () => refreshLibrary(client) });
}

export function useCreateCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(collectionsApi.create, { body: { name } }),
    onSuccess: (saved) => {
      client.setQueryData(collectionsQuery.queryKey, (old: Collection[] | undefined) => (old ? [...old, saved] : old));
      void client.invalidateQueries({ queryKey: collectionsQuery.queryKey });
    },
  });
}

export function useRenameCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => call(collectionsApi.update, { params: { id }, body: { name } }),
    onSuccess: () => void client.invalidateQueries({ queryKey: collectionsQuery.queryKey }),
  });
}

export function useDeleteCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(collectionsApi.delete, { params: { id } }),
    onSuccess: () => refreshLibrary(client),
  });
}
