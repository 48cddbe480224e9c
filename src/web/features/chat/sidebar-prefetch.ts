import type { QueryClient } from "@tanstack/react-query";
import { chatQuery, messagesQuery } from "./api.js";
import { Markdown } from "./components/lazy-markdown.js";
import { foldersQuery, pinnedChatsQuery, unfiledChatsQuery } from "./folders-api.js";

/**
 * The sidebar's first reads (pinned chats, folders, chats in no folder), started as soon as the signed-in app
 * knows it opens the chat, in parallel with the chat's code (decision 021). The sidebar then finds them in the
 * cache (or in flight) under the same keys.
 */
export function prefetchSidebar(client: QueryClient): void {
  void client.prefetchInfiniteQuery(pinnedChatsQuery);
  void client.prefetchQuery(foldersQuery);
  void client.prefetchInfiniteQuery(unfiledChatsQuery);
}

/**
 * The open chat's first reads (the chat, its newest page of messages), started with the sidebar's instead of after
 * the chat's code has drawn its screen (issue 29): the screen finds them in the cache (or in flight). A chat that
 * is not there fails here quietly; the screen reads it again and says so.
 */
export function prefetchOpenChat(client: QueryClient, chatId: number): void {
  void client.prefetchQuery(chatQuery(chatId));
  void client.prefetchInfiniteQuery(messagesQuery(chatId));
}

/**
 * The Markdown renderer's code, for a /chat/{id} opened at boot: asked for with the page's code (not after the chat
 * screen has drawn), so the replies are drawn formatted at once rather than as typed and then again (decision 041).
 */
export function preloadOpenChatCode(): Promise<unknown> {
  return Markdown.preload();
}
