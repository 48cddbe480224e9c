import type { QueryClient } from "@tanstack/react-query";
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
