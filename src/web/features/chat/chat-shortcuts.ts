/**
 * The chat's keyboard shortcuts, written once for the key handler and the `?` dialog.
 * "mod" is ⌘ on Apple devices and Ctrl elsewhere. Chosen to stay clear of the browser's own:
 * Ctrl+Shift+R (hard reload), Ctrl+N/T/W and their Shift forms are never taken; regenerate is
 * Mod+Shift+E for that reason.
 */
export type ShortcutId = "newChat" | "focusComposer" | "searchChats" | "stop" | "regenerate" | "copyReply" | "toggleHistory" | "help";

export type Shortcut = {
  id: ShortcutId;
  label: string;
  /** A letter (with mod + shift, or mod alone), "Escape", or "?" (alone). */
  key: string;
  mod: boolean;
  shift: boolean;
};

export const CHAT_SHORTCUTS: readonly Shortcut[] = [
  { id: "newChat", label: "New chat", key: "o", mod: true, shift: true },
  { id: "focusComposer", label: "Focus the message box", key: "Escape", mod: false, shift: true },
  { id: "searchChats", label: "Search chats", key: "k", mod: true, shift: false },
  { id: "stop", label: "Stop generating (while a reply is written)", key: "Escape", mod: false, shift: false },
  { id: "regenerate", label: "Regenerate the last reply", key: "e", mod: true, shift: true },
  { id: "copyReply", label: "Copy the last reply", key: "c", mod: true, shift: true },
  { id: "toggleHistory", label: "Show or hide the chat history", key: "s", mod: true, shift: true },
  { id: "help", label: "Show these shortcuts", key: "?", mod: false, shift: false },
];

/** Apple keyboards use ⌘ (macOS, and iPadOS with a keyboard). */
export function isApplePlatform(nav: { platform?: string; userAgentData?: { platform?: string } } | undefined): boolean {
  const platform = nav?.userAgentData?.platform || nav?.platform || "";
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** The keys as shown: ["⌘", "⇧", "O"] on Apple, ["Ctrl", "Shift", "O"] elsewhere. */
export function shortcutKeys(shortcut: Shortcut, apple: boolean): string[] {
  const keys: string[] = [];
  if (shortcut.mod) keys.push(apple ? "⌘" : "Ctrl");
  if (shortcut.shift) keys.push(apple ? "⇧" : "Shift");
  keys.push(shortcut.key === "Escape" ? "Esc" : shortcut.key.toUpperCase());
  return keys;
}

export type KeyPress = Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">;

/** The letter pressed: the key when it is a Latin letter, else the physical key (another alphabet's layout). */
function letterOf(event: KeyPress): string | null {
  if (/^[a-z]$/i.test(event.key)) return event.key.toLowerCase();
  const match = /^Key([A-Z])$/.exec(event.code);
  return match ? match[1]!.toLowerCase() : null;
}

/** Which shortcut a key press is, if any. Alt (and AltGr, which is Ctrl+Alt) never is: typing stays whole. */
export function matchShortcut(event: KeyPress, apple: boolean): ShortcutId | null {
  if (event.altKey) return null;
  const mod = apple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  const otherMod = apple ? event.ctrlKey : event.metaKey;
  if (otherMod) return null;
  if (event.key === "?") return mod ? null : "help";
  if (event.key === "Escape") {
    if (mod) return null;
    return event.shiftKey ? "focusComposer" : "stop";
  }
  if (!mod) return null;
  const letter = letterOf(event);
  const found = CHAT_SHORTCUTS.find((s) => s.mod && s.key === letter && s.shift === event.shiftKey);
  return found?.id ?? null;
}

/** An element where keys type text (a single-key shortcut must leave it alone). */
export function isTextField(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) {
    return !["button", "checkbox", "radio", "range", "color", "file", "submit", "reset", "image"].includes(element.type);
  }
  return element instanceof HTMLElement && element.isContentEditable;
}
