import { ChevronRight, Folder as FolderIcon, FolderOpen, GraduationCap, MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import type { Folder } from "../../../../../shared/contracts/chat-folders.js";
import { LazyDropdownMenu } from "../../../../components/lazy-dropdown-menu.js";
import { cn } from "../../../../lib/cn.js";
import { carriesChat, draggedChatId } from "./chat-drag.js";

export type FolderAction = { kind: "rename" | "delete" | "course"; folder: Folder };

/** A folder of the sidebar: opens and closes, takes a dragged chat, and renames, turns into a course (all its chats) or deletes from its menu. */
export function FolderRow({
  folder,
  open,
  onToggle,
  onAction,
  onDropChat,
}: {
  folder: Folder;
  open: boolean;
  onToggle: () => void;
  onAction: (action: FolderAction) => void;
  onDropChat: (chatId: number) => void;
}) {
  const [dragOver, setDragOver] = useState(false);
  const Icon = open ? FolderOpen : FolderIcon;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a dragged chat is the pointer way; "Move to folder..." is the keyboard way.
    <div
      data-folder-id={folder.id}
      className={cn(
        "group relative flex h-full items-center rounded-md transition-colors hover:bg-accent/60",
        dragOver && "bg-primary/10 ring-2 ring-primary ring-inset",
      )}
      onDragOver={(event) => {
        if (!carriesChat(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        setDragOver(true);
      }}
      onDragLeave={() => setDragOver(false)}
      onDrop={(event) => {
        setDragOver(false);
        const id = draggedChatId(event);
        if (id === null) return;
        event.preventDefault();
        onDropChat(id);
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-label={`${folder.name}, ${folder.chatCount === 1 ? "1 chat" : `${folder.chatCount} chats`}`}
        data-folder-toggle=""
        onClick={onToggle}
        className="flex h-full min-w-0 flex-1 items-center gap-2 rounded-md px-2 pr-9 text-left text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronRight
          className={cn("size-3.5 shrink-0 text-muted-foreground transition-transform", open && "rotate-90")}
          aria-hidden="true"
        />
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="truncate font-medium" title={folder.name}>
          {folder.name}
        </span>
        <span className="ml-auto shrink-0 text-xs text-muted-foreground tabular-nums" aria-hidden="true">
          {folder.chatCount}
        </span>
      </button>
      <LazyDropdownMenu
        modal={false}
        trigger={
          <button
            type="button"
            aria-label={`Folder actions for ${folder.name}`}
            className="absolute top-1/2 right-1 flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-background/80 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-background/80"
          >
            <MoreHorizontal className="size-4" aria-hidden="true" />
          </button>
        }
      >
        {(ui) => (
          <ui.DropdownMenuContent align="end" className="w-48">
            <ui.DropdownMenuItem onSelect={() => onAction({ kind: "rename", folder })}>
              <Pencil aria-hidden="true" />
              Rename
            </ui.DropdownMenuItem>
            <ui.DropdownMenuItem onSelect={() => onAction({ kind: "course", folder })}>
              <GraduationCap aria-hidden="true" />
              Turn into a course
            </ui.DropdownMenuItem>
            <ui.DropdownMenuItem
              className="text-destructive focus:bg-destructive/10 focus:text-destructive"
              onSelect={() => onAction({ kind: "delete", folder })}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </ui.DropdownMenuItem>
          </ui.DropdownMenuContent>
        )}
      </LazyDropdownMenu>
    </div>
  );
}
