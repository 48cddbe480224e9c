import { createContext, type RefObject, useCallback, useContext, useLayoutEffect, useState } from "react";

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
