import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import type { Chat, ChatSearchHit, Message, UpdateChatBody } from "../../../shared/contracts/chat.js";
import { NEXT_CURSOR_HEADER } from "../../../shared/contracts/common.js";
import type { UserSettings } from "../../../shared/contracts/settings.js";
import { aiPlatformsQuery } from "../../lib/ai-models.js";
import { apiRequest, apiRequestWithHeaders } from "../../lib/api-client.js";
import { chooseChatModel } from "./choose-chat-model.js";

export const CHAT_PAGE_SIZE = 100;
export const MESSAGE_PAGE_SIZE = 200;
export const SEARCH_LIMIT = 20;

type Page<T> = { items: T[]; nextCursor: string | null };

/** A page of a list that may grow without bound; the next cursor comes in X-Next-Cursor (absent: no more). */
async function fetchPage<T>(url: string): Promise<Page<T>> {
  const { data, headers } = await apiRequestWithHeaders<T[]>("GET", url);
  return { items: data ?? [], nextCursor: headers.get(NEXT_CURSOR_HEADER) || null };
}

export const chatKeys = {
  list: ["/api/chats", "list"] as const,
  chat: (id: number) => ["/api/chats", id] as const,
  messages: (id: number) => ["/api/chats", id, "messages"] as const,
  search: (q: string) => ["/api/chats/search", q] as const,
};

/** GET /api/user/settings (the same cache entry the settings page uses). */
export const chatUserSettingsQuery = queryOptions<UserSettings>({ queryKey: ["/api/user/settings"] });

/** GET /api/chats, most recently active first, page by page. */
export const chatListQuery = infiniteQueryOptions({
  queryKey: chatKeys.list,
  queryFn: ({ pageParam }) =>
    fetchPage<Chat>(`/api/chats?limit=${CHAT_PAGE_SIZE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

export const chatQuery = (id: number) =>
  queryOptions({ queryKey: chatKeys.chat(id), queryFn: () => apiRequest<Chat>("GET", `/api/chats/${id}`) });

/** GET /api/chats/{id}/messages: the newest page first; each next page is older. */
export const messagesQuery = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam }) =>
      fetchPage<Message>(
        `/api/chats/${chatId}/messages?limit=${MESSAGE_PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** GET /api/chats/search: chats whose title or messages hold the text. */
export const chatSearchQuery = (q: string) =>
  queryOptions({
    queryKey: chatKeys.search(q),
    queryFn: () => apiRequest<ChatSearchHit[]>("GET", `/api/chats/search?q=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`),
    staleTime: 0,
  });

type ChatPages = InfiniteData<Page<Chat>, string | null>;

function editList(client: QueryClient, edit: (chats: Chat[], index: number) => Chat[]) {
  client.setQueryData<ChatPages>(chatKeys.list, (old) =>
    old ? { ...old, pages: old.pages.map((page, index) => ({ ...page, items: edit(page.items, index) })) } : old,
  );
}

/** A chat that just had activity goes to the top of the list (temporary chats are never listed). */
export function putChatFirst(client: QueryClient, chat: Chat) {
  client.setQueryData(chatKeys.chat(chat.id), chat);
  if (chat.temporary) return;
  editList(client, (items, index) => {
    const rest = items.filter((c) => c.id !== chat.id);
    return index === 0 ? [chat, ...rest] : rest;
  });
}

function replaceChat(client: QueryClient, chat: Chat) {
  client.setQueryData(chatKeys.chat(chat.id), chat);
  editList(client, (items) => items.map((c) => (c.id === chat.id ? chat : c)));
}

/** A deleted chat leaves the list and the search results; an open screen keeps its copy until it navigates away. */
export function forgetChat(client: QueryClient, id: number) {
  editList(client, (items) => items.filter((c) => c.id !== id));
  client.removeQueries({ queryKey: chatKeys.chat(id), type: "inactive" });
  client.removeQueries({ queryKey: ["/api/chats/search"] });
}

/** After a reply: the chat again (its title may have changed from New Chat), first in the list. */
export async function refreshChatAfterReply(client: QueryClient, id: number) {
  const chat = await apiRequest<Chat>("GET", `/api/chats/${id}`);
  putChatFirst(client, chat);
  client.removeQueries({ queryKey: ["/api/chats/search"] });
}

/** POST /api/chats with the user's default model (or the first usable platform). */
export function useCreateChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const [settings, platforms] = await Promise.all([
        client.fetchQuery(chatUserSettingsQuery).catch(() => null),
        client.fetchQuery(aiPlatformsQuery).catch(() => []),
      ]);
      const choice = chooseChatModel(settings?.defaultModel, platforms ?? []);
      return apiRequest<Chat>("POST", "/api/chats", choice ?? {});
    },
    onSuccess: (chat) => putChatFirst(client, chat),
  });
}

/** PATCH /api/chats/{id}: rename, or change platform and model. The change shows at once. */
export function useUpdateChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateChatBody }) => apiRequest<Chat>("PATCH", `/api/chats/${id}`, body),
    onMutate: ({ id, body }) => {
      const previous = client.getQueryData<Chat>(chatKeys.chat(id));
      if (previous) replaceChat(client, { ...previous, ...body, title: body.title?.trim() || previous.title } as Chat);
      return { previous };
    },
    onSuccess: (chat) => replaceChat(client, chat),
    onError: (_error, _vars, context) => {
      if (context?.previous) replaceChat(client, context.previous);
    },
  });
}

/** DELETE /api/chats/{id}. */
export function useDeleteChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>("DELETE", `/api/chats/${id}`),
    onSuccess: (_data, id) => forgetChat(client, id),
  });
}

/** POST /api/chats/{id}/stop: the running reply ends, marked incomplete. */
export function stopReply(chatId: number) {
  return apiRequest<{ stopped: boolean }>("POST", `/api/chats/${chatId}/stop`);
}
