import { chatsApi } from "./chat.js";
import { chatFoldersApi } from "./chat-folders.js";
import { queryString } from "./endpoint.js";

/** How many chats a sidebar section reads per page. */
export const SECTION_PAGE_SIZE = 100;

/**
 * The sidebar's two first list reads (pinned chats; chats in no folder), by their query: the web's queries are
 * built from these, and the server names the same addresses in the chat page's preload hints (issue 29), so
 * the browser's own read finds the answer already on its way.
 */
export const sidebarSections = {
  pinned: { limit: SECTION_PAGE_SIZE, pinned: "true" },
  unfiled: { limit: SECTION_PAGE_SIZE, folderId: "none", pinned: "false" },
} as const;

/** The addresses of the sidebar's first reads: pinned chats, folders, chats in no folder. */
export function sidebarFirstReadUrls(): string[] {
  return [
    chatsApi.list.path + queryString(sidebarSections.pinned),
    chatFoldersApi.list.path,
    chatsApi.list.path + queryString(sidebarSections.unfiled),
  ];
}
