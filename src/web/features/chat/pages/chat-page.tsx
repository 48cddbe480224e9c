import { useEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useLocation, useParams, useSearch } from "wouter";
import { collectionsAsked } from "../../../lib/ask-collection.js";
import { chatPath } from "../../../lib/paths.js";
import { ChatHistory } from "../components/chat-history.js";
import { ChatScreen } from "../components/chat-screen.js";
import { ChatLoadFailed } from "../components/chat-status.js";
import { ShortcutsDialog } from "../components/lazy-chat-dialogs.js";
import { Markdown } from "../components/lazy-markdown.js";
import { type ChatActions, type ChatLayout, ChatLayoutContext, startNewChat, useRailCollapsed } from "../hooks/use-chat-layout.js";
import { useChatShortcuts } from "../hooks/use-chat-shortcuts.js";

/** Tailwind's lg: the history is a rail from here, a sheet below. */
const isWide = () => window.matchMedia("(min-width: 64rem)").matches;

/** The rail, the sheet and the shortcuts dialog, shared with the header and the chat through context. */
function useChatFrame(focusSearch: () => void): ChatLayout {
  const [railCollapsed, toggleRailState] = useRailCollapsed();
  const [sheetOpen, setSheetOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const sheetSearch = useRef(false);
  const chatActions = useRef<ChatActions | null>(null);
  const collapsedRef = useRef(railCollapsed);
  collapsedRef.current = railCollapsed;
  return useMemo(
    () => ({
      railCollapsed,
      toggleRail: () => (isWide() ? toggleRailState() : setSheetOpen((open) => !open)),
      sheetOpen,
      setSheetOpen: (open: boolean) => {
        if (!open) sheetSearch.current = false;
        setSheetOpen(open);
      },
      searchChats: () => {
        if (!isWide()) {
          sheetSearch.current = true;
          setSheetOpen(true);
          return;
        }
        // Drawn now (not on the next render), so its search box is there to focus.
        if (collapsedRef.current) flushSync(toggleRailState);
        focusSearch();
      },
      sheetSearch,
      shortcutsOpen,
      setShortcutsOpen,
      chatActions,
    }),
    [railCollapsed, toggleRailState, sheetOpen, shortcutsOpen, focusSearch],
  );
}

/** /chat and /chat/{id}: the whole viewport under the top bar, the history rail beside the chat (a sheet below lg). */
export function ChatPage() {
  const { id: raw } = useParams<{ id?: string }>();
  const opensStoredChat = raw !== undefined;
  useEffect(() => {
    // Fetch the renderer while a stored chat loads (a chat opened from the sidebar; at boot it was asked for already);
    // a new chat has no reply to draw yet (its first screen stays small).
    if (opensStoredChat) void Markdown.preload().catch(() => undefined);
  }, [opensStoredChat]);
  const id = raw !== undefined && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const [, navigate] = useLocation();
  const railRef = useRef<HTMLElement>(null);
  const focusSearch = useMemo(() => () => railRef.current?.querySelector<HTMLInputElement>('input[type="search"]')?.focus(), []);
  const layout = useChatFrame(focusSearch);
  useChatShortcuts(layout, () => startNewChat(layout, navigate));
  // /chat is a new chat that exists only here until its first message creates it; the screen then stays the
  // same (same key, nothing lost) while the address becomes /chat/{id}. Back on /chat, a fresh new chat.
  // Refs, not state: the address changes in the same step as the id is known, and no render in between may
  // see one without the other (that would mount a second screen and lose the reply being streamed).
  const created = useRef<number | null>(null);
  const draftKey = useRef(0);
  if (raw === undefined && created.current !== null) {
    created.current = null;
    draftKey.current += 1;
  }
  // "Ask this collection" opens /chat?collection=<id> (decision 066). The address a new chat was opened with is part
  // of its key, so another (or none: New chat) starts afresh, while the move to /chat/{id} at creation keeps it.
  const search = useSearch();
  const draftSearch = useRef(search);
  if (raw === undefined) draftSearch.current = search;
  // Read by the new chat's screen when it mounts only.
  const asked = collectionsAsked(draftSearch.current);
  const isDraft = raw === undefined || (id !== null && id === created.current);
  const onCreated = (chatId: number) => {
    created.current = chatId;
    navigate(chatPath(chatId), { replace: true });
  };
  return (
    <ChatLayoutContext value={layout}>
      {/* Fixed under the 4rem top bar: no page padding or width cap around the chat. */}
      <div className="fixed inset-x-0 top-16 bottom-0 flex bg-background">
        {layout.railCollapsed ? null : (
          <aside ref={railRef} aria-label="Chat history" className="hidden w-72 shrink-0 flex-col border-r bg-muted/30 lg:flex">
            <ChatHistory currentId={id} />
          </aside>
        )}
        <section aria-label="Chat" className="flex min-w-0 flex-1 flex-col">
          {isDraft ? (
            <ChatScreen key={`new-${draftKey.current}-${draftSearch.current}`} chatId={id} onCreated={onCreated} asked={asked} />
          ) : id === null ? (
            <ChatLoadFailed currentId={null} />
          ) : (
            <ChatScreen key={id} chatId={id} />
          )}
        </section>
      </div>
      <ShortcutsDialog open={layout.shortcutsOpen} onOpenChange={layout.setShortcutsOpen} />
    </ChatLayoutContext>
  );
}
