import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.js";
import { Spinner } from "../../../components/ui/spinner.js";
import { aiPlatformsQuery, platformName } from "../../../domain/ai-models.js";
import { errorMessage } from "../../../lib/api-client.js";
import { cn } from "../../../lib/cn.js";
import { notify } from "../../../lib/notify.js";
import { loadMoreFolderChats } from "../folders-api.js";
import { type ChatAction, ChatRow } from "./chat-row.js";
import { EmptyHistory } from "./empty-history.js";
import { carriesChat, draggedChatId } from "./folders/chat-drag.js";
import { type FolderAction, FolderRow } from "./folders/folder-row.js";
import { ROW_HEIGHT, type SidebarRow, useSidebarRows } from "./folders/use-sidebar-rows.js";

/**
 * The history: pinned chats, folders (open ones list their chats), then the chats in no folder. Virtualized
 * (only the rows in view exist), each section loading its next page when its end comes into view.
 */
export function ChatList({
  currentId,
  now,
  openFolders,
  onToggleFolder,
  onNavigate,
  onAction,
  onFolderAction,
  onMoveChat,
}: {
  currentId: number | null;
  now: Date;
  openFolders: ReadonlySet<number>;
  onToggleFolder: (folderId: number) => void;
  onNavigate?: () => void;
  onAction: (action: ChatAction) => void;
  onFolderAction: (action: FolderAction) => void;
  onMoveChat: (chatId: number, folderId: number | null) => void;
}) {
  const sidebar = useSidebarRows(openFolders);
  const platforms = useQuery(aiPlatformsQuery);
  const client = useQueryClient();
  const [loadingFolder, setLoadingFolder] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { rows } = sidebar;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => ROW_HEIGHT[rows[index]?.kind ?? "chat"],
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const loaderInView = items.map((item) => rows[item.index]).find((row) => row?.kind === "loading" && row.key.startsWith("l-"))?.key;
  const { loadMore } = sidebar;
  useEffect(() => {
    if (loaderInView) loadMore(loaderInView);
  }, [loaderInView, loadMore]);

  if (sidebar.pending) {
    return (
      <p className="flex items-center gap-2 px-3 py-4 text-sm text-muted-foreground">
        <Spinner className="size-4" label="Loading chats" />
        Loading chats...
      </p>
    );
  }
  if (sidebar.error) {
    return (
      <div className="grid gap-2 px-3 py-4 text-sm">
        <p className="text-destructive">Your chats could not be loaded: {errorMessage(sidebar.error)}</p>
        <Button variant="outline" size="sm" className="w-fit" onClick={() => void sidebar.retry()}>
          Try again
        </Button>
      </div>
    );
  }
  if (rows.length === 0) return <EmptyHistory />;

  const showMore = (folderId: number) => {
    setLoadingFolder(folderId);
    loadMoreFolderChats(client, folderId)
      .catch((error: unknown) => notify.error("More chats could not be loaded", errorMessage(error)))
      .finally(() => setLoadingFolder(null));
  };

  const render = (row: SidebarRow) => {
    switch (row.kind) {
      case "chat":
        return (
          <ChatRow
            chat={row.chat}
            nested={row.nested}
            platformName={platformName(row.chat.aiPlatform, platforms.data)}
            selected={row.chat.id === currentId}
            now={now}
            onNavigate={onNavigate}
            onAction={onAction}
          />
        );
      case "folder":
        return (
          <FolderRow
            folder={row.folder}
            open={row.open}
            onToggle={() => onToggleFolder(row.folder.id)}
            onAction={onFolderAction}
            onDropChat={(chatId) => onMoveChat(chatId, row.folder.id)}
          />
        );
      case "heading":
        return <SectionHeading label={row.label} onDropChat={row.dropTarget ? (chatId) => onMoveChat(chatId, null) : undefined} />;
      case "note":
        return (
          <p
            className={cn(
              "flex h-full items-center px-3 text-xs",
              row.nested && "ml-5",
              row.tone === "error" ? "text-destructive" : "text-muted-foreground",
            )}
          >
            {row.text}
          </p>
        );
      case "loading":
        return (
          <p className={cn("flex h-full items-center gap-2 px-3 text-xs text-muted-foreground", row.nested && "ml-5")}>
            <Spinner className="size-3.5" label={row.label} />
            {row.label}
          </p>
        );
      case "more":
        return (
          <Button
            variant="ghost"
            size="sm"
            className="ml-5 h-full text-xs"
            disabled={loadingFolder === row.folderId}
            onClick={() => showMore(row.folderId)}
          >
            {loadingFolder === row.folderId ? <Spinner className="size-3.5" label="Loading more chats" /> : null}
            Show more chats
          </Button>
        );
    }
  };

  return (
    <div ref={scrollRef} data-testid="chat-list-scroll" className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      <ul aria-label="Chats" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <li
              key={item.key}
              className="absolute top-0 left-0 w-full py-0.5"
              style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            >
              {render(row)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** "Pinned", "Folders", "Chats"; a chat dropped on "Chats" leaves its folder. */
function SectionHeading({ label, onDropChat }: { label: string; onDropChat?: ((chatId: number) => void) | undefined }) {
  const [over, setOver] = useState(false);
  return (
    <h3
      className={cn("flex h-full items-end px-2 pb-1 text-xs font-semibold text-muted-foreground", over && "rounded-md bg-primary/10")}
      onDragOver={
        onDropChat
          ? (event) => {
              if (!carriesChat(event)) return;
              event.preventDefault();
              setOver(true);
            }
          : undefined
      }
      onDragLeave={() => setOver(false)}
      onDrop={
        onDropChat
          ? (event) => {
              setOver(false);
              const id = draggedChatId(event);
              if (id !== null) onDropChat(id);
            }
          : undefined
      }
    >
      {label}
    </h3>
  );
}
