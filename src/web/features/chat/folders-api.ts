import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import type { Chat, ChatListQuery } from "../../../shared/contracts/chat.js";
import { chatsApi } from "../../../shared/contracts/chat.js";
import { chatFoldersApi, type DeleteFolderMode, type Folder } from "../../../shared/contracts/chat-folders.js";
import { sidebarSections } from "../../../shared/contracts/sidebar-first-reads.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";

export const FOLDER_PAGE_SIZE = 50;

type Page = { items: Chat[]; nextCursor: string | null };
export type ChatPages = InfiniteData<Page, string | null>;
type ListFilter = Partial<Pick<ChatListQuery, "folderId" | "pinned">>;

/** GET /api/chat-folders: the caller's folders by name, with their chat counts. */
export const foldersQuery = endpointQuery(chatFoldersApi.list, {});

function sectionQuery(query: ListFilter & { limit: number }) {
  return infiniteQueryOptions({
    queryKey: endpointKey(chatsApi.list, { query }),
    queryFn: ({ pageParam, signal }) => call(chatsApi.list, { query: { ...query, cursor: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The sidebar's first section: pinned chats, most recently pinned first. */
export const pinnedChatsQuery = sectionQuery(sidebarSections.pinned);
/** The sidebar's last section: chats in no folder and not pinned, most recently active first. */
export const unfiledChatsQuery = sectionQuery(sidebarSections.unfiled);

/**
 * One folder's chats (pinned ones too), loaded when the folder opens. A plain query holding pages, so that
 * any number of open folders can be read at once (`useQueries`); `loadMoreFolderChats` adds the next page.
 */
export const folderChatsQuery = (folderId: number) => {
  const query = { limit: FOLDER_PAGE_SIZE, folderId };
  return queryOptions({
    queryKey: endpointKey(chatsApi.list, { query }),
    queryFn: async ({ signal }): Promise<ChatPages> => {
      const page = await call(chatsApi.list, { query }, { signal });
      return { pages: [page], pageParams: [null] };
    },
  });
};

export async function loadMoreFolderChats(client: QueryClient, folderId: number): Promise<void> {
  const { queryKey } = folderChatsQuery(folderId);
  const cursor = client.getQueryData<ChatPages>(queryKey)?.pages.at(-1)?.nextCursor;
  if (!cursor) return;
  const page = await call(chatsApi.list, { query: { limit: FOLDER_PAGE_SIZE, folderId, cursor } });
  client.setQueryData<ChatPages>(queryKey, (old) =>
    old && old.pages.at(-1)?.nextCursor === cursor ? { pages: [...old.pages, page], pageParams: [...old.pageParams, cursor] } : old,
  );
}

/** Does a list read with this query (its cache key) hold this chat? */
function belongs(chat: Chat, query: ListFilter): boolean {
  if (chat.temporary) return false;
  if (query.folderId === "none" && chat.folderId !== null) return false;
  if (typeof query.folderId === "number" && chat.folderId !== query.folderId) return false;
  if (query.pinned === "true" && !chat.pinned) return false;
  if (query.pinned === "false" && chat.pinned) return false;
  return true;
}

/** Most recently active first; ties by id, as the server orders them. */
const comesBefore = (a: Chat, b: Chat) => a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id);

/** Puts the chat where the server would list it, within the pages loaded; past them, the next page brings it. */
function placeIn(data: ChatPages, chat: Chat, pinnedOrder: boolean, wasThere: boolean): ChatPages {
  const pages = data.pages.map((page) => ({ ...page, items: page.items.filter((c) => c.id !== chat.id) }));
  if (pinnedOrder) {
    // Pinned: a chat just pinned goes first; one already pinned keeps its place.
    if (wasThere) return { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.map((c) => (c.id === chat.id ? chat : c)) })) };
    pages[0]?.items.unshift(chat);
    return { ...data, pages };
  }
  for (const page of pages) {
    const at = page.items.findIndex((c) => comesBefore(chat, c));
    if (at >= 0) {
      page.items.splice(at, 0, chat);
      return { ...data, pages };
    }
  }
  const last = pages.at(-1);
  if (last && !last.nextCursor) last.items.push(chat);
  return { ...data, pages };
}

/**
 * After a chat changed (activity, rename, move, pin): every loaded list of chats shows it where the server
 * would, or leaves it out, without a refetch. Folder counts are read again (one small query).
 */
export function placeChatInLists(client: QueryClient, chat: Chat, options: { countsChanged: boolean }) {
  for (const [key, data] of client.getQueriesData<ChatPages>({ queryKey: endpointKey(chatsApi.list) })) {
    if (!data || !("pages" in data)) continue;
    const query = (key[2] ?? {}) as ListFilter;
    const wasThere = data.pages.some((page) => page.items.some((c) => c.id === chat.id));
    const next = belongs(chat, query)
      ? placeIn(data, chat, query.pinned === "true", wasThere)
      : { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((c) => c.id !== chat.id) })) };
    client.setQueryData(key, next);
  }
  if (options.countsChanged) void client.invalidateQueries({ queryKey: foldersQuery.queryKey });
}

/** A deleted chat leaves every list. */
export function dropChatFromLists(client: QueryClient, id: number) {
  for (const [key, data] of client.getQueriesData<ChatPages>({ queryKey: endpointKey(chatsApi.list) })) {
    if (!data || !("pages" in data)) continue;
    client.setQueryData(key, { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((c) => c.id !== id) })) });
  }
  void client.invalidateQueries({ queryKey: foldersQuery.queryKey });
}

/** POST /api/chat-folders. */
export function useCreateFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(chatFoldersApi.create, { body: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: foldersQuery.queryKey }),
  });
}

/** PATCH /api/chat-folders/{id}. */
export function useRenameFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => call(chatFoldersApi.rename, { params: { id }, body: { name } }),
    onSuccess: (folder) =>
      client.setQueryData<Folder[]>(foldersQuery.queryKey, (old) => old?.map((f) => (f.id === folder.id ? folder : f))),
  });
}

/** DELETE /api/chat-folders/{id}?chats=move|delete; then every list of chats is read again. */
export function useDeleteFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, chats }: { id: number; chats: DeleteFolderMode }) =>
      call(chatFoldersApi.remove, { params: { id }, query: { chats } }),
    onSuccess: async (_data, { id }) => {
      client.removeQueries({ queryKey: folderChatsQuery(id).queryKey });
      client.removeQueries({ queryKey: endpointKey(chatsApi.search) });
      await Promise.all([
        client.invalidateQueries({ queryKey: foldersQuery.queryKey }),
        client.invalidateQueries({ queryKey: endpointKey(chatsApi.list) }),
        client.invalidateQueries({ queryKey: endpointKey(chatsApi.get) }),
      ]);
    },
  });
}
