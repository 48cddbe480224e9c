import { useQueryClient } from "@tanstack/react-query";
import { FolderPlus, Plus, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { Button } from "../../../components/ui/button.js";
import { Input } from "../../../components/ui/input.js";
import { errorMessage } from "../../../lib/api-client.js";
import { newCourseFromMaterialPath } from "../../../lib/app-paths.js";
import { notify } from "../../../lib/notify.js";
import { paths } from "../../../lib/paths.js";
import { useDebouncedValue } from "../../../lib/use-debounced-value.js";
import { chatQuery, useUpdateChat } from "../api.js";
import { startNewChat, useChatLayout } from "../hooks/use-chat-layout.js";
import { ChatList } from "./chat-list.js";
import type { ChatAction } from "./chat-row.js";
import { ChatSearchResults } from "./chat-search-results.js";
import type { FolderAction } from "./folders/folder-row.js";
import { SearchScopeSelect } from "./folders/search-scope-select.js";
import { DeleteChatDialog, DeleteFolderDialog, FolderNameDialog, MoveChatDialog, RenameChatDialog } from "./lazy-chat-dialogs.js";

const SEARCH_DELAY_MS = 250;

/** "Today" and "Yesterday" roll over while the page stays open. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Open folders, so a folder stays open while the user moves around. */
function useOpenFolders() {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) =>
    setOpen((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const show = (id: number) => setOpen((old) => (old.has(id) ? old : new Set(old).add(id)));
  return { open, toggle, show };
}

/** The history: New Chat, New folder, search (in all chats or one folder), and the sidebar's sections. */
export function ChatHistory({ currentId, onNavigate }: { currentId: number | null; onNavigate?: () => void }) {
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const [search, setSearch] = useState("");
  const [scope, setScope] = useState<number | null>(null);
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [action, setAction] = useState<ChatAction | null>(null);
  const [folderAction, setFolderAction] = useState<FolderAction | { kind: "create" } | null>(null);
  const folders = useOpenFolders();
  const update = useUpdateChat();
  const now = useNow();

  const moveChat = (chatId: number, folderId: number | null) =>
    update.mutate(
      { id: chatId, body: { folderId } },
      {
        onSuccess: () => {
          if (folderId !== null) folders.show(folderId);
        },
        onError: (error) => notify.error("The chat could not be moved", errorMessage(error)),
      },
    );
  // "Turn into a course": the courses page opens New Course "From my material" with this chat or folder.
  const toCourse = (from: { chatId: number } | { folderId: number }) => {
    onNavigate?.();
    navigate(newCourseFromMaterialPath(from));
  };
  const onFolderAction = (next: FolderAction) => (next.kind === "course" ? toCourse({ folderId: next.folder.id }) : setFolderAction(next));
  const onChatAction = (next: ChatAction) => {
    if (next.kind === "course") return toCourse({ chatId: next.chat.id });
    if (next.kind !== "pin") return setAction(next);
    update.mutate(
      { id: next.chat.id, body: { pinned: !next.chat.pinned } },
      {
        onError: (error) =>
          notify.error(next.chat.pinned ? "The chat could not be unpinned" : "The chat could not be pinned", errorMessage(error)),
      },
    );
  };

  // A new chat is only a page until its first message: nothing is stored here.
  const layout = useChatLayout();
  const newChat = () => {
    onNavigate?.();
    if (layout) startNewChat(layout, navigate);
    else navigate(paths.chat);
  };

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="grid gap-2 p-3">
        <div className="flex gap-2">
          <Button onClick={newChat} className="min-w-0 flex-1">
            <Plus aria-hidden="true" />
            New Chat
          </Button>
          <Button
            variant="outline"
            size="icon"
            aria-label="New folder"
            title="New folder"
            onClick={() => setFolderAction({ kind: "create" })}
          >
            <FolderPlus aria-hidden="true" />
          </Button>
        </div>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search chats"
            placeholder="Search chats..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape" && search) {
                event.stopPropagation();
                setSearch("");
              }
            }}
            className="h-9 pl-8"
          />
        </div>
        <SearchScopeSelect folderId={scope} onChange={setScope} />
      </div>
      {query ? (
        <ChatSearchResults query={query} folderId={scope ?? undefined} currentId={currentId} now={now} onNavigate={onNavigate} />
      ) : (
        <ChatList
          currentId={currentId}
          now={now}
          openFolders={folders.open}
          onToggleFolder={folders.toggle}
          onNavigate={onNavigate}
          onAction={onChatAction}
          onFolderAction={onFolderAction}
          onMoveChat={moveChat}
        />
      )}
      {action?.kind === "move" ? (
        <MoveChatDialog
          chat={action.chat}
          onClose={() => setAction(null)}
          onNewFolder={() => {
            setAction(null);
            setFolderAction({ kind: "create" });
          }}
          onMove={(folderId) => {
            moveChat(action.chat.id, folderId);
            setAction(null);
          }}
        />
      ) : null}
      {folderAction?.kind === "create" ? (
        <FolderNameDialog onClose={() => setFolderAction(null)} onCreated={(made) => folders.show(made.id)} />
      ) : null}
      {folderAction?.kind === "rename" ? <FolderNameDialog folder={folderAction.folder} onClose={() => setFolderAction(null)} /> : null}
      {folderAction?.kind === "delete" ? (
        <DeleteFolderDialog
          folder={folderAction.folder}
          onClose={() => setFolderAction(null)}
          onDeleted={(mode) => {
            const deletedFolder = folderAction.folder.id;
            if (scope === deletedFolder) setScope(null);
            const current = currentId === null ? undefined : client.getQueryData(chatQuery(currentId).queryKey);
            if (mode === "delete" && current?.folderId === deletedFolder) {
              onNavigate?.();
              navigate(paths.chat);
            }
          }}
        />
      ) : null}
      {action?.kind === "rename" ? <RenameChatDialog chat={action.chat} onClose={() => setAction(null)} /> : null}
      {action?.kind === "delete" ? (
        <DeleteChatDialog
          chat={action.chat}
          onClose={() => setAction(null)}
          onDeleted={(chat) => {
            if (chat.id !== currentId) return;
            onNavigate?.();
            navigate(paths.chat);
          }}
        />
      ) : null}
    </div>
  );
}
