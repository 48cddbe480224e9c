import { infiniteQueryOptions, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { aiPlatformsApi } from "../../../shared/contracts/ai-platforms.js";
import { type Chat, chatsApi, type UpdateChatBody } from "../../../shared/contracts/chat.js";
import { settingsApi } from "../../../shared/contracts/settings.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { dropChatFromLists, placeChatInLists } from "./folders-api.js";

export const CHAT_PAGE_SIZE = 100;
export const MESSAGE_PAGE_SIZE = 200;
export const SEARCH_LIMIT = 20;

/** GET /api/user/settings (the same cache entry the settings page uses). */
export const chatUserSettingsQuery = endpointQuery(settingsApi.get, {});

/** GET /api/ai/platforms/turned-off: the platforms set up but turned off, for the no-platform notice. */
export const turnedOffPlatformsQuery = endpointQuery(aiPlatformsApi.turnedOff, {});

/** GET /api/chats, most recently active first, page by page (the next cursor comes in X-Next-Cursor). */
export const chatListQuery = infiniteQueryOptions({
  queryKey: endpointKey(chatsApi.list, { query: { limit: CHAT_PAGE_SIZE } }),
  queryFn: ({ pageParam, signal }) => call(chatsApi.list, { query: { limit: CHAT_PAGE_SIZE, cursor: pageParam ?? undefined } }, { signal }),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
});

/** GET /api/chats/{id}. */
export const chatQuery = (id: number) => endpointQuery(chatsApi.get, { params: { id } });

/** GET /api/chats/{id}/messages: the newest page first; each next page is older. */
export const messagesQuery = (chatId: number) =>
  infiniteQueryOptions({
    queryKey: endpointKey(chatsApi.messages, { params: { id: chatId }, query: { limit: MESSAGE_PAGE_SIZE } }),
    queryFn: ({ pageParam, signal }) =>
      call(chatsApi.messages, { params: { id: chatId }, query: { limit: MESSAGE_PAGE_SIZE, before: pageParam ?? undefined } }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** GET /api/chats/search: chats whose title or messages hold the text. */
export const chatSearchQuery = (q: string, folderId?: number) => ({
  ...endpointQuery(chatsApi.search, { query: { q, limit: SEARCH_LIMIT, folderId } }),
  staleTime: 0,
});

/** Every search result list (they are dropped whenever a chat changes). */
const searchKey = endpointKey(chatsApi.search);

/** A chat that just had activity goes to the top of its lists (temporary chats are never listed). */
export function putChatFirst(client: QueryClient, chat: Chat) {
  client.setQueryData(chatQuery(chat.id).queryKey, chat);
  placeChatInLists(client, chat, { countsChanged: false });
}

/** A renamed, moved or pinned chat: in its place in every list (sidebar sections, folders). */
function replaceChat(client: QueryClient, chat: Chat, countsChanged = false) {
  client.setQueryData(chatQuery(chat.id).queryKey, chat);
  placeChatInLists(client, chat, { countsChanged });
}

/** A deleted chat leaves the list and the search results; an open screen keeps its copy until it navigates away. */
export function forgetChat(client: QueryClient, id: number) {
  dropChatFromLists(client, id);
  client.removeQueries({ queryKey: chatQuery(id).queryKey, type: "inactive" });
  client.removeQueries({ queryKey: searchKey });
}

/** After a reply: the chat again (its title may have changed from New Chat), first in the list. */
export async function refreshChatAfterReply(client: QueryClient, id: number) {
  const chat = await call(chatsApi.get, { params: { id } });
  putChatFirst(client, chat);
  client.removeQueries({ queryKey: searchKey });
}

/**
 * POST /api/chats, at the first message only (a visit to /chat stores nothing): with the model chosen on the new
 * chat, then its personality. The chat is listed once its first message is stored (the reply settles it).
 */
export async function createChatForFirstMessage(
  client: QueryClient,
  choice: { aiPlatform?: string; model?: string },
  personalityId: number | null,
): Promise<Chat> {
  let chat = await call(chatsApi.create, { body: choice });
  if (personalityId !== null) chat = await call(chatsApi.update, { params: { id: chat.id }, body: { personalityId } });
  client.setQueryData(chatQuery(chat.id).queryKey, chat);
  client.setQueryData(messagesQuery(chat.id).queryKey, { pages: [{ items: [], nextCursor: null }], pageParams: [null] });
  return chat;
}

/** PATCH /api/chats/{id}: rename, or change platform and model. The change shows at once. */
export function useUpdateChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateChatBody }) => call(chatsApi.update, { params: { id }, body }),
    onMutate: ({ id, body }) => {
      const previous = client.getQueryData(chatQuery(id).queryKey);
      if (previous) replaceChat(client, { ...previous, ...body, title: body.title?.trim() || previous.title } as Chat);
      return { previous };
    },
    onSuccess: (chat, { body }) => {
      replaceChat(client, chat, body.folderId !== undefined);
      // Search results scoped to a folder may no longer hold it.
      if (body.folderId !== undefined) client.removeQueries({ queryKey: searchKey });
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) replaceChat(client, context.previous);
    },
  });
}

/** DELETE /api/chats/{id}. */
export function deleteChat(id: number) {
  return call(chatsApi.remove, { params: { id } });
}

/** DELETE /api/chats/{id}, then the chat leaves the list. */
export function useDeleteChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteChat,
    onSuccess: (_data, id) => forgetChat(client, id),
  });
}

/** PUT /api/chats/{id}/branch: show another version of a message (and the conversation after it), then read it. */
export function useSwitchBranch(chatId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => call(chatsApi.switchBranch, { params: { id: chatId }, body: { messageId } }),
    onSuccess: () => client.refetchQueries({ queryKey: messagesQuery(chatId).queryKey }),
  });
}

/** POST /api/chats/{id}/stop: the running reply ends, marked incomplete. */
export function stopReply(chatId: number) {
  return call(chatsApi.stop, { params: { id: chatId } });
}
