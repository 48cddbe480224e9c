import { FolderInput, GraduationCap, MoreHorizontal, Pencil, Pin, PinOff, Trash2 } from "lucide-react";
import { Link } from "wouter";
import { shownTitle } from "../../../../shared/chat-title.js";
import type { Chat } from "../../../../shared/contracts/chat.js";
import { LazyDropdownMenu } from "../../../components/lazy-dropdown-menu.js";
import { cn } from "../../../lib/cn.js";
import { chatPath } from "../../../lib/paths.js";
import { formatChatDate } from "../format-chat-date.js";
import { startChatDrag } from "./folders/chat-drag.js";
import { PlatformBadge } from "./platform-badge.js";

export type ChatAction = { kind: "rename" | "delete" | "move" | "pin" | "course"; chat: Chat };

/** One chat of the history: title, platform badge, date; its menu renames, moves, pins, turns it into a course or deletes it; it drags onto a folder. */
export function ChatRow({
  chat,
  platformName,
  selected,
  snippet,
  nested = false,
  now,
  onNavigate,
  onAction,
}: {
  chat: Chat;
  platformName: string;
  selected: boolean;
  snippet?: string | null;
  /** Inside an open folder: indented under it. */
  nested?: boolean;
  now: Date;
  onNavigate?: () => void;
  onAction?: (action: ChatAction) => void;
}) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dragging onto a folder is the pointer way; "Move to folder..." is the keyboard way.
    <div
      data-chat-id={chat.id}
      draggable={onAction ? true : undefined}
      onDragStart={onAction ? (event) => startChatDrag(event, chat.id) : undefined}
      className={cn(
        "group relative flex items-center rounded-md transition-colors hover:bg-accent/60",
        nested && "ml-5",
        selected && "bg-accent text-accent-foreground hover:bg-accent",
      )}
    >
      <Link
        href={chatPath(chat.id)}
        onClick={onNavigate}
        aria-current={selected ? "page" : undefined}
        className="flex min-w-0 flex-1 flex-col gap-1 rounded-md px-2.5 py-2 pr-9 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex min-w-0 items-center gap-1.5 text-sm font-medium">
          {chat.pinned ? <Pin className="size-3.5 shrink-0 text-muted-foreground" aria-label="Pinned" /> : null}
          <span className="truncate">{shownTitle(chat.title)}</span>
        </span>
        {snippet ? <span className="line-clamp-2 text-xs text-muted-foreground">{snippet}</span> : null}
        <span className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
          <PlatformBadge slug={chat.aiPlatform} name={platformName} />
          <time dateTime={chat.updatedAt} className="truncate">
            {formatChatDate(chat.updatedAt, now)}
          </time>
        </span>
      </Link>
      {onAction ? (
        <LazyDropdownMenu
          modal={false}
          trigger={
            <button
              type="button"
              aria-label={`Chat actions for ${shownTitle(chat.title)}`}
              className="absolute top-1.5 right-1 flex size-7 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-background/80 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-background/80"
            >
              <MoreHorizontal className="size-4" aria-hidden="true" />
            </button>
          }
        >
          {(ui) => (
            <ui.DropdownMenuContent align="end" className="w-48">
              <ui.DropdownMenuItem onSelect={() => onAction({ kind: "rename", chat })}>
                <Pencil aria-hidden="true" />
                Rename
              </ui.DropdownMenuItem>
              <ui.DropdownMenuItem onSelect={() => onAction({ kind: "pin", chat })}>
                {chat.pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
                {chat.pinned ? "Unpin" : "Pin"}
              </ui.DropdownMenuItem>
              <ui.DropdownMenuItem onSelect={() => onAction({ kind: "move", chat })}>
                <FolderInput aria-hidden="true" />
                Move to folder...
              </ui.DropdownMenuItem>
              <ui.DropdownMenuItem onSelect={() => onAction({ kind: "course", chat })}>
                <GraduationCap aria-hidden="true" />
                Turn into a course
              </ui.DropdownMenuItem>
              <ui.DropdownMenuItem
                className="text-destructive focus:bg-destructive/10 focus:text-destructive"
                onSelect={() => onAction({ kind: "delete", chat })}
              >
                <Trash2 aria-hidden="true" />
                Delete
              </ui.DropdownMenuItem>
            </ui.DropdownMenuContent>
          )}
        </LazyDropdownMenu>
      ) : null}
    </div>
  );
}
