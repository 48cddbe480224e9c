import { createContext, type RefObject, useCallback, useContext, useLayoutEffect, useState } from "react";
import { paths } from "../../../lib/paths.js";

/** What the open chat lends to the page's shortcuts (set by ChatScreen on each render, null without one). */
export type ChatActions = {
  busy: boolean;
  stop: () => void;
  /** Undefined when the last message is not a settled reply. */
  regenerate?: () => void;
  /** The last reply's text, or null when there is none yet. */
  lastReply: () => string | null;
  focusComposer: () => void;
  isComposer: (element: Element | null) => boolean;
};

/** The chat page's frame: the history rail (desktop), the history sheet (small screens) and the shortcuts. */
export type ChatLayout = {
  railCollapsed: boolean;
  toggleRail: () => void;
  sheetOpen: boolean;
  setSheetOpen: (open: boolean) => void;
  /** Open the history (rail or sheet) and put the cursor in its search box. */
  searchChats: () => void;
  /** The sheet focuses its search box (instead of New Chat) when opened for a search. */
  sheetSearch: RefObject<boolean>;
  shortcutsOpen: boolean;
  setShortcutsOpen: (open: boolean) => void;
  chatActions: RefObject<ChatActions | null>;
};

export const ChatLayoutContext = createContext<ChatLayout | null>(null);

/** The page's frame; null outside the chat page (the header then shows no rail toggle). */
export function useChatLayout(): ChatLayout | null {
  return useContext(ChatLayoutContext);
}

const RAIL_KEY = "chat-history-collapsed";

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(RAIL_KEY) === "1";
  } catch {
    return false; // storage blocked: open, as on a first visit
  }
}

/** The desktop rail's state, remembered in localStorage across reloads. */
export function useRailCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = useCallback(() => {
    setCollapsed((was) => {
      const next = !was;
      try {
        if (next) window.localStorage.setItem(RAIL_KEY, "1");
        else window.localStorage.removeItem(RAIL_KEY);
      } catch {
        // not remembered; the rail still follows the click
      }
      return next;
    });
  }, []);
  return [collapsed, toggle];
}

/** What the chat shows now: the last reply's text and how to regenerate it (written by the screen as it renders). */
export type ChatView = { lastReply: string | null; regenerate?: () => void };

/** Lends the open chat's actions to the page's shortcuts while the screen is mounted. */
export function useProvideChatActions({
  busy,
  stop,
  composer,
  view,
}: {
  busy: boolean;
  stop: () => void;
  composer: RefObject<HTMLElement | null>;
  view: RefObject<ChatView>;
}) {
  const layout = useChatLayout();
  useLayoutEffect(() => {
    if (!layout) return;
    const holder = layout.chatActions;
    const actions: ChatActions = {
      busy,
      stop,
      get regenerate() {
        return view.current.regenerate;
      },
      lastReply: () => view.current.lastReply,
      focusComposer: () => composer.current?.querySelector("textarea")?.focus(),
      isComposer: (element) => element !== null && composer.current?.contains(element) === true,
    };
    holder.current = actions;
    return () => {
      if (holder.current === actions) holder.current = null;
    };
  }, [layout, busy, stop, composer, view]);
}

/** Focuses the message box once a newly shown chat has drawn it (a few frames at most). */
function focusComposerSoon(layout: ChatLayout, frames = 20) {
  requestAnimationFrame(() => {
    const chat = layout.chatActions.current;
    chat?.focusComposer();
    if (frames > 0 && !chat?.isComposer(document.activeElement)) focusComposerSoon(layout, frames - 1);
  });
}

/**
 * New Chat, from its button and from Mod+Shift+O: the sheet closes, /chat opens (a new chat, stored with its first
 * message) and the cursor goes to its message box once it is drawn, so the press always shows where to type, even
 * on /chat already.
 */
export function startNewChat(layout: ChatLayout, navigate: (to: string) => void): void {
  layout.setSheetOpen(false);
  // A chat being left: its box must not take the focus (on /chat already, the new chat's box is the one shown).
  if (window.location.pathname !== paths.chat) layout.chatActions.current = null;
  navigate(paths.chat);
  focusComposerSoon(layout);
}
