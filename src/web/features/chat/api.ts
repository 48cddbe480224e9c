import { infiniteQueryOptions, type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { retitle } from "../../../shared/chat-title.js";
import { aiPlatformsApi } from "../../../shared/contracts/ai-platforms.js";
import {
  type Chat,
  chatsApi,
  type Message,
  type ReplyEnd,
  type ShownMessage,
  type UpdateChatBody,
} from "../../../shared/contracts/chat.js";
import { endedPausedReply, PAUSED_LEFT } from "../../../shared/contracts/paused-reply.js";
import { settingsApi } from "../../../shared/contracts/settings.js";
import { usageQuery } from "../../domain/usage.js";
import { call, endpointKey } from "../../lib/api-client.js";
import { endpointQuery } from "../../lib/endpoint-query.js";
import { dropChatFromLists, placeChatInLists } from "./folders-api.js";

export const CHAT_PAGE_SIZE = 100;
export const MESSAGE_PAGE_SIZE = 200;
export const SEARCH_LIMIT = 20;

/** GET /api/user/settings (the same cache entry the settings page uses). */
export const chatUserSettingsQuery = endpointQuery(settingsApi.get, {});

/** GET /api/usage (the usage meter): read by the dashboard's plan card too, so it lives in `domain/usage.ts`. */
export { usageQuery };

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

/** After a reply whose end said nothing more (the server could not read it): the chat and the usage read again. */
export async function refreshChatAfterReply(client: QueryClient, id: number) {
  const [chat] = await Promise.all([call(chatsApi.get, { params: { id } }), client.invalidateQueries({ queryKey: usageQuery.queryKey })]);
  putChatFirst(client, chat);
  client.removeQueries({ queryKey: searchKey });
}

type MessagePages = { pages: { items: ShownMessage[]; nextCursor: string | null }[]; pageParams: (string | null)[] };

/**
 * The branch shown once a reply ended (`after.shown`: the message it answers, then the reply): what was shown up to
 * the parent of the first stays, what came after it goes (an edited message, the reply regenerated, a streaming
 * copy), the two come last. Null when the pages loaded do not hold that parent: read them again then. Pages newer
 * than the one holding it go, and the newest page left starts the infinite query again (its page param null).
 */
export function withReplyShown(data: MessagePages | undefined, shown: ShownMessage[]): MessagePages | null {
  const first = shown[0];
  if (!data || !first) return null;
  if (first.parentId === null) return { pages: [{ items: shown, nextCursor: null }], pageParams: [null] };
  const at = data.pages.findIndex((page) => page.items.some((m) => m.id === first.parentId));
  const page = data.pages[at];
  if (!page) return null;
  const kept = page.items.slice(0, page.items.findIndex((m) => m.id === first.parentId) + 1);
  return {
    pages: [{ ...page, items: [...kept, ...shown] }, ...data.pages.slice(at + 1)],
    pageParams: [null, ...data.pageParams.slice(at + 1)],
  };
}

/**
 * A reply started: the user's message it answers is stored (the server sends `start` once it committed), so the
 * chat is active now and, at its first message, titled from it by the same rule the server used (`retitle`). It
 * goes to the top of its lists at once, a new chat included, while its reply still streams; the reply's end brings
 * the server's own copy (`applyReplyEnd`).
 */
export function applyReplyStart(client: QueryClient, chatId: number, userMessage: Message) {
  const chat = client.getQueryData(chatQuery(chatId).queryKey);
  if (!chat) return;
  // ISO times: the later of the two (a resumed stream may hold a copy of the chat newer than the message).
  const updatedAt = [chat.updatedAt, userMessage.createdAt].sort().at(-1) ?? chat.updatedAt;
  putChatFirst(client, { ...chat, ...retitle(chat.title, userMessage.content), updatedAt });
}

/**
 * A new reply started in the chat (a send, an edit, a regenerate): the server ended the reply paused on a tool call, if
 * any (decision 050); its copy shows that at once (kept, its call denied), so its card offers no Approve any more.
 */
export function applyPausedEnded(client: QueryClient, chatId: number) {
  const { queryKey } = messagesQuery(chatId);
  const data = client.getQueryData(queryKey);
  if (!data?.pages.some((page) => page.items.some((m) => m.status === "awaiting-approval"))) return;
  const pages = data.pages.map((page) => ({ ...page, items: page.items.map((m) => endedPausedReply(m, PAUSED_LEFT)) }));
  client.setQueryData(queryKey, { ...data, pages });
}

/**
 * After a reply, what its done event says it changed goes into the copies the screen reads (the chat and its
 * lists, the usage, the branch shown), so none of them is read again. False when the messages loaded could not
 * take the reply's end (`withReplyShown`): the caller reads them again.
 */
export function applyReplyEnd(client: QueryClient, after: ReplyEnd): boolean {
  putChatFirst(client, after.chat);
  client.removeQueries({ queryKey: searchKey });
  client.setQueryData(usageQuery.queryKey, after.usage);
  const { queryKey } = messagesQuery(after.chat.id);
  const next = withReplyShown(client.getQueryData(queryKey), after.shown);
  if (next) client.setQueryData(queryKey, next);
  return next !== null;
}

/**
 * POST /api/chats, at the first message only (a visit to /chat stores nothing): with the model, the personality and
 * the collections chosen on the new chat, in one call (then its tools, when switched there: PATCH). The chat is listed
 * once its first message is stored (`applyReplyStart`).
 */
export async function createChatForFirstMessage(
  client: QueryClient,
  choice: { aiPlatform?: string; model?: string },
  personalityId: number | null,
  tools?: string[],
  collectionIds: readonly number[] = [],
): Promise<Chat> {
  let chat = await call(chatsApi.create, {
    body: {
      ...choice,
      ...(personalityId !== null ? { personalityId } : {}),
      ...(collectionIds.length > 0 ? { collectionIds: [...collectionIds] } : {}),
    },
  });
  // It starts with its personality's tools; a choice made on the new chat replaces them before the first message.
  if (tools !== undefined && [...tools].sort().join() !== chat.tools.join()) {
    chat = await call(chatsApi.update, { params: { id: chat.id }, body: { tools } });
  }
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
