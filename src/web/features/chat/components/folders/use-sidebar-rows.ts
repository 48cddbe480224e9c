import { type UseQueryResult, useInfiniteQuery, useQueries, useQuery } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { Chat } from "../../../../../shared/contracts/chat.js";
import type { Folder } from "../../../../../shared/contracts/chat-folders.js";
import { type ChatPages, folderChatsQuery, foldersQuery, pinnedChatsQuery, unfiledChatsQuery } from "../../folders-api.js";

/** One line of the sidebar; the list is flat so that only the lines in view exist, whatever is open. */
export type SidebarRow =
  | { kind: "heading"; key: string; label: string; dropTarget: boolean }
  | { kind: "chat"; key: string; chat: Chat; nested: boolean }
  | { kind: "folder"; key: string; folder: Folder; open: boolean }
  | { kind: "note"; key: string; text: string; nested: boolean; tone: "muted" | "error" }
  | { kind: "loading"; key: string; label: string; nested: boolean }
  | { kind: "more"; key: string; folderId: number };

export const ROW_HEIGHT: Record<SidebarRow["kind"], number> = { heading: 32, chat: 64, folder: 40, note: 36, loading: 36, more: 36 };

/**
 * Pinned chats (most recently pinned first), then the folders (each open one followed by its chats, most
 * recent first, loaded when opened), then the chats in no folder. Each section pages on its own.
 */
export function useSidebarRows(openFolders: ReadonlySet<number>) {
  const pinned = useInfiniteQuery(pinnedChatsQuery);
  const unfiled = useInfiniteQuery(unfiledChatsQuery);
  const folders = useQuery(foldersQuery);
  const openIds = (folders.data ?? []).filter((f) => openFolders.has(f.id)).map((f) => f.id);
  // A stable `combine`: the rows are rebuilt only when a folder's chats change, not on every scroll frame.
  const idsKey = openIds.join(",");
  const combine = useCallback(
    (results: UseQueryResult<ChatPages>[]) => {
      const ids = idsKey ? idsKey.split(",").map(Number) : [];
      return new Map(results.map((result, index) => [ids[index] ?? 0, result]));
    },
    [idsKey],
  );
  const folderChats = useQueries({ queries: openIds.map((id) => folderChatsQuery(id)), combine });

  const rows = useMemo(() => {
    const out: SidebarRow[] = [];
    const pinnedChats = pinned.data?.pages.flatMap((p) => p.items) ?? [];
    const folderList = folders.data ?? [];
    if (pinnedChats.length > 0) {
      out.push({ kind: "heading", key: "h-pinned", label: "Pinned", dropTarget: false });
      for (const chat of pinnedChats) out.push({ kind: "chat", key: `p-${chat.id}`, chat, nested: false });
      if (pinned.hasNextPage) out.push({ kind: "loading", key: "l-pinned", label: "Loading more pinned chats...", nested: false });
    }
    if (folderList.length > 0) out.push({ kind: "heading", key: "h-folders", label: "Folders", dropTarget: false });
    for (const folder of folderList) {
      const open = openFolders.has(folder.id);
      out.push({ kind: "folder", key: `f-${folder.id}`, folder, open });
      if (!open) continue;
      const result = folderChats.get(folder.id);
      if (!result || result.isPending) {
        out.push({ kind: "loading", key: `fl-${folder.id}`, label: "Loading chats...", nested: true });
      } else if (result.isError) {
        out.push({
          kind: "note",
          key: `fe-${folder.id}`,
          text: "Could not load this folder. Close it and open it again.",
          nested: true,
          tone: "error",
        });
      } else {
        const chats = result.data.pages.flatMap((p) => p.items);
        if (chats.length === 0)
          out.push({ kind: "note", key: `fn-${folder.id}`, text: "No chats in this folder", nested: true, tone: "muted" });
        for (const chat of chats) out.push({ kind: "chat", key: `fc-${folder.id}-${chat.id}`, chat, nested: true });
        if (result.data.pages.at(-1)?.nextCursor) out.push({ kind: "more", key: `fm-${folder.id}`, folderId: folder.id });
      }
    }
    const unfiledChats = unfiled.data?.pages.flatMap((p) => p.items) ?? [];
    const sectioned = out.length > 0;
    if (sectioned) out.push({ kind: "heading", key: "h-chats", label: "Chats", dropTarget: folderList.length > 0 });
    for (const chat of unfiledChats) out.push({ kind: "chat", key: `u-${chat.id}`, chat, nested: false });
    if (unfiled.hasNextPage) out.push({ kind: "loading", key: "l-unfiled", label: "Loading more chats...", nested: false });
    else if (sectioned && unfiledChats.length === 0)
      out.push({ kind: "note", key: "n-unfiled", text: "No chats outside folders.", nested: false, tone: "muted" });
    return out;
  }, [pinned.data, pinned.hasNextPage, unfiled.data, unfiled.hasNextPage, folders.data, folderChats, openFolders]);

  const pending = pinned.isPending || unfiled.isPending || folders.isPending;
  const error = pinned.error ?? unfiled.error ?? folders.error;
  const retry = () => Promise.all([pinned.refetch(), unfiled.refetch(), folders.refetch()]);
  /** Loads the next page of a section whose loading row came into view. */
  const loadMore = (key: string) => {
    if (key === "l-pinned" && !pinned.isFetchingNextPage) void pinned.fetchNextPage();
    if (key === "l-unfiled" && !unfiled.isFetchingNextPage) void unfiled.fetchNextPage();
  };
  return { rows, pending, error, retry, loadMore };
}
