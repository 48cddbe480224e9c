import { useEffect, useRef } from "react";
import { notify } from "../../../lib/notify.js";
import { isApplePlatform, isTextField, matchShortcut, type ShortcutId } from "../chat-shortcuts.js";
import type { ChatLayout } from "./use-chat-layout.js";

/** Whether the device's shortcuts use ⌘ (read once, in the browser). */
export function useApplePlatform(): boolean {
  const apple = useRef<boolean | null>(null);
  if (apple.current === null) apple.current = typeof navigator !== "undefined" && isApplePlatform(navigator as never);
  return apple.current;
}

/** A dialog, menu or list box is open: its keys (Escape closes it) are its own. */
function overlayOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;
}

async function copyLastReply(text: string | null) {
  if (!text) {
    notify.error("No reply to copy yet", "Send a message first; its reply can then be copied.");
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    notify.success("Reply copied");
  } catch {
    notify.error("Could not copy the reply", "The browser refused the clipboard: select the text and copy it instead.");
  }
}

/**
 * The chat's keyboard shortcuts (listed in `chat-shortcuts.ts`). Keys with Ctrl/⌘ work anywhere; `?` and
 * Escape leave text fields alone (Escape still stops a reply from the message box).
 */
export function useChatShortcuts(layout: ChatLayout, newChat: () => void) {
  const apple = useApplePlatform();
  const latest = useRef(layout);
  latest.current = layout;
  const newChatRef = useRef(newChat);
  newChatRef.current = newChat;

  useEffect(() => {
    const run = (id: ShortcutId, target: Element | null): boolean => {
      const { chatActions, toggleRail, searchChats, setShortcutsOpen, shortcutsOpen } = latest.current;
      const chat = chatActions.current;
      if (id === "help") {
        if (isTextField(target) || (overlayOpen() && !shortcutsOpen)) return false;
        setShortcutsOpen(!shortcutsOpen);
        return true;
      }
      if (overlayOpen()) return false;
      switch (id) {
        case "newChat":
          newChatRef.current();
          return true;
        case "focusComposer":
          chat?.focusComposer();
          return chat !== null;
        case "searchChats":
          searchChats();
          return true;
        case "toggleHistory":
          toggleRail();
          return true;
        case "stop": {
          if (!chat?.busy || (isTextField(target) && !chat.isComposer(target))) return false;
          chat.stop();
          return true;
        }
        case "regenerate":
          if (!chat?.regenerate) return false;
          chat.regenerate();
          return true;
        case "copyReply":
          if (!chat) return false;
          void copyLastReply(chat.lastReply());
          return true;
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) return;
      const id = matchShortcut(event, apple);
      if (id && run(id, document.activeElement)) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [apple]);
}
